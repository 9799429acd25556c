import { asRecord } from '../manifest/as-record.js'
import { parseRatePeriod } from '../manifest/parse-rate-period.js'
import type { ManifestPath } from '../manifest/source-ranges.js'
import type { CheckContext } from './check-context.js'

/**
 * RATE_PERIOD: every `per` (of `limits.rate` and of each resource's `rate`)
 * is a window parseRatePeriod reads. RATE_WITHOUT_DEFAULT: a resource's
 * `rate` needs `limits.rate`. Shapes that are not maps are the schema's to report.
 */
export function checkRateLimits(context: CheckContext, data: unknown): void {
  const root = asRecord(data)
  const service = asRecord(asRecord(root?.limits)?.rate)
  if (service) checkPeriod(context, service.per, ['limits', 'rate', 'per'])
  for (const [name, value] of Object.entries(asRecord(root?.resources) ?? {})) {
    const rate = asRecord(asRecord(value)?.rate)
    if (rate === null) continue
    checkPeriod(context, rate.per, ['resources', name, 'rate', 'per'])
    if (service === null) {
      context.report(
        'RATE_WITHOUT_DEFAULT',
        `resource "${name}" sets its own rate, but limits.rate is not set; add limits.rate ` +
          '(e.g. `rate: { requests: 600, per: 1m }` under limits), the limit of every other request',
        context.atKey(['resources', name, 'rate']),
      )
    }
  }
}

function checkPeriod(context: CheckContext, per: unknown, path: ManifestPath): void {
  if (typeof per !== 'string' || parseRatePeriod(per) !== null) return
  context.report(
    'RATE_PERIOD',
    `rate period ${JSON.stringify(per)} is not a whole number of seconds, minutes or hours up to a day; write e.g. 30s, 1m or 1h`,
    context.atValue(path),
  )
}
