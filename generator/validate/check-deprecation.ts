import { addCalendarMonths } from '../manifest/add-calendar-months.js'
import { asRecord } from '../manifest/as-record.js'
import { listNewerVersions } from '../manifest/order-versions.js'
import type { CheckContext } from './check-context.js'

/** The overlap the interface rules promise consumers between deprecation and sunset. */
const DEPRECATION_OVERLAP_MONTHS = 6

/**
 * VERSION_SUNSET_WITHOUT_DEPRECATED, VERSION_SUNSET_TOO_EARLY,
 * VERSION_DEPRECATED_WITHOUT_SUCCESSOR, VERSION_GUIDE_WITHOUT_DEPRECATED,
 * VERSION_FROZEN_WITHOUT_DEPRECATED: a version's `deprecated`, `sunset`,
 * `guide` and `frozen` agree with each other and with
 * the newer versions. Dates the schema rejected are left to it.
 */
export function checkDeprecation(context: CheckContext, data: unknown): void {
  const versions = asRecord(asRecord(data)?.versions)
  if (versions === null) return
  const names = Object.keys(versions)
  const isDeprecated = (name: string): boolean => asRecord(versions[name])?.deprecated !== undefined
  for (const name of names) {
    const version = asRecord(versions[name])
    if (version === null) continue
    const deprecated = readDate(version.deprecated)
    const sunset = readDate(version.sunset)
    const quoted = JSON.stringify(name)
    if (version.deprecated === undefined) {
      if (version.sunset !== undefined) {
        const suggestion =
          sunset === null ? '' : ` (${addCalendarMonths(sunset, -DEPRECATION_OVERLAP_MONTHS)} or earlier)`
        context.report(
          'VERSION_SUNSET_WITHOUT_DEPRECATED',
          `version ${quoted} has a sunset but is not deprecated; add "deprecated: <date>"${suggestion}, ` +
            `at least ${DEPRECATION_OVERLAP_MONTHS} months before the sunset, or remove "sunset"`,
          context.atKey(['versions', name, 'sunset']),
        )
      }
      if (version.frozen === true) {
        context.report(
          'VERSION_FROZEN_WITHOUT_DEPRECATED',
          `version ${quoted} is frozen but not deprecated: a current version grows with the API; ` +
            `add "deprecated: <date>", or remove "frozen"`,
          context.atKey(['versions', name, 'frozen']),
        )
      }
      if (version.guide !== undefined) {
        context.report(
          'VERSION_GUIDE_WITHOUT_DEPRECATED',
          `version ${quoted} has a migration guide but is not deprecated, so no response links it; ` +
            `add "deprecated: <date>", or remove "guide"`,
          context.atKey(['versions', name, 'guide']),
        )
      }
      continue
    }
    if (deprecated !== null && sunset !== null) {
      const earliest = addCalendarMonths(deprecated, DEPRECATION_OVERLAP_MONTHS)
      if (sunset < earliest) {
        context.report(
          'VERSION_SUNSET_TOO_EARLY',
          `sunset ${sunset} of version ${quoted} is less than ${DEPRECATION_OVERLAP_MONTHS} months after its ` +
            `deprecation (${deprecated}): consumers get at least ${DEPRECATION_OVERLAP_MONTHS} months to migrate; ` +
            `set "sunset: ${earliest}" or later`,
          context.atValue(['versions', name, 'sunset']),
        )
      }
    }
    const newer = listNewerVersions(name, names)
    if (!newer.some((other) => !isDeprecated(other))) {
      const next = `v${Number((newer.at(-1) ?? name).slice(1)) + 1}`
      const why =
        newer.length === 0
          ? 'no newer version replaces it'
          : `every newer version (${newer.join(', ')}) is deprecated too`
      context.report(
        'VERSION_DEPRECATED_WITHOUT_SUCCESSOR',
        `version ${quoted} is deprecated but ${why}, so its clients have nothing to migrate to; ` +
          `add a current version (${next}: {}) to versions, or remove "deprecated"`,
        context.atKey(['versions', name, 'deprecated']),
      )
    }
  }
}

/** A `YYYY-MM-DD` that names a real day, else null. */
function readDate(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null
  const parsed = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value) ? value : null
}
