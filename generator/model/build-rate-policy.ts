import type { RatePolicy } from '../../runtime/contract/rate-policy.js'
import type { ManifestRate } from '../manifest/manifest.js'
import { parseRatePeriod } from '../manifest/parse-rate-period.js'

/** The policy `name` of a validated `rate` (RATE_PERIOD has checked `per`); null without one. */
export function buildRatePolicy(name: string, rate: ManifestRate | undefined): RatePolicy | null {
  if (rate === undefined) return null
  return { name, requests: rate.requests, windowSeconds: parseRatePeriod(rate.per)! }
}
