import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { orderVersions } from '../manifest/order-versions.js'
import { VERSION_CHANGE_KINDS } from '../versions/version-change.js'

export const VERSION_NAME = /^v[1-9][0-9]*$/

/** VERSION_NAME: each version is a path prefix `/v<major>`; reported at the key. */
export function checkVersions(context: CheckContext, data: unknown): void {
  const versions = asRecord(asRecord(data)?.versions)
  if (versions === null) return
  for (const name of Object.keys(versions)) {
    if (VERSION_NAME.test(name)) continue
    const major = /[1-9][0-9]*/.exec(name)?.[0]
    const hint = major === undefined ? '' : `; did you mean "v${major}"?`
    context.report(
      'VERSION_NAME',
      `version ${JSON.stringify(name)} must be named v<major> (v1, v2, ...): it becomes the path prefix of every route${hint}`,
      context.atKey(['versions', name]),
    )
  }
}

/**
 * The form of each version's `changes`: none on the oldest version
 * (VERSION_CHANGES_FIRST), at least one on every newer one
 * (VERSION_CHANGES_MISSING), one change per entry (VERSION_CHANGE_KIND). What
 * the changes name is checked by checkDerivedVersions, once the manifest is valid.
 */
export function checkVersionChanges(context: CheckContext, data: unknown): void {
  const versions = asRecord(asRecord(data)?.versions)
  if (versions === null) return
  // Versions are ordered by their major: with a misnamed one (VERSION_NAME) the order is unknown.
  if (!Object.keys(versions).every((name) => VERSION_NAME.test(name))) return
  const [oldest, ...newer] = orderVersions(Object.keys(versions))
  if (oldest === undefined) return
  if (asRecord(versions[oldest])?.changes !== undefined) {
    context.report(
      'VERSION_CHANGES_FIRST',
      `version "${oldest}" is the oldest version: there is no version before it to change from; remove its changes`,
      context.atKey(['versions', oldest, 'changes']),
    )
  }
  newer.forEach((name, index) => {
    const previous = index === 0 ? oldest : newer[index - 1]!
    const changes = asRecord(versions[name])?.changes
    if (changes === undefined || (Array.isArray(changes) && changes.length === 0)) {
      context.report(
        'VERSION_CHANGES_MISSING',
        `version "${name}" lists no changes: a new major exists only for breaking changes; list them in ${name}.changes (each with why), or keep using ${previous} and remove ${name}`,
        context.atKey(changes === undefined ? ['versions', name] : ['versions', name, 'changes']),
      )
    }
    if (Array.isArray(changes)) changes.forEach((entry, at) => checkKinds(context, name, at, entry))
  })
}

/** An entry names exactly one change; one that only misspells it is the schema's UNKNOWN_KEY. */
function checkKinds(context: CheckContext, version: string, index: number, entry: unknown): void {
  const keys = Object.keys(asRecord(entry) ?? {})
  const kinds = keys.filter((key) => (VERSION_CHANGE_KINDS as readonly string[]).includes(key))
  if (kinds.length === 1 || keys.some((key) => key !== 'why' && !kinds.includes(key))) return
  const where = `change ${index + 1} of version "${version}"`
  const message =
    kinds.length === 0
      ? `${where} names no change; give exactly one of ${VERSION_CHANGE_KINDS.join(', ')}`
      : `${where} names ${kinds.length} changes (${kinds.join(', ')}); write each as an entry of its own, with its own why`
  context.report('VERSION_CHANGE_KIND', message, context.atValue(['versions', version, 'changes', index]))
}
