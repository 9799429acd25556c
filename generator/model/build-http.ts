import type { Manifest, ManifestRate, ManifestServiceRate } from '../manifest/manifest.js'
import type { HttpModel } from './api-model.js'
import type { RatePolicy, ServiceRatePolicy } from '../../runtime/contract/rate-policy.js'
import { parseRatePeriod } from '../manifest/parse-rate-period.js'

/**
 * Request headers a browser may send cross-origin besides the CORS-safelisted
 * ones: credentials, JSON bodies, and conditional requests.
 */
const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match']

/** The manifest's `http:`, validated (HTTP_TRUST_PROXY, HTTP_CORS_ORIGIN). */
export function buildHttp(manifest: Manifest): HttpModel {
  const { trust_proxy: trustProxy, cors } = manifest.http ?? {}
  return {
    trustProxy: trustProxy ?? null,
    cors: cors
      ? { origins: cors.origins, maxAgeSeconds: cors.max_age ?? null, allowedHeaders: corsRequestHeaders(manifest) }
      : null,
  }
}

/** The request headers browsers may send: the generated ones, and each API-key scheme's header. */
function corsRequestHeaders(manifest: Manifest): string[] {
  const apiKeyHeaders = Object.values(manifest.auth?.schemes ?? {}).flatMap((scheme) =>
    scheme.type === 'api_key' && scheme.header !== undefined ? [scheme.header] : [],
  )
  return [...CORS_REQUEST_HEADERS, ...apiKeyHeaders]
}

/** The policy `name` of a validated `rate` (RATE_PERIOD has checked `per`); null without one. */
export function buildRatePolicy(name: string, rate: ManifestRate | undefined): RatePolicy | null {
  if (rate === undefined) return null
  return { name, requests: rate.requests, windowSeconds: parseRatePeriod(rate.per)! }
}

/** `limits.rate`, named `default`, with its `ipv6_prefix` when the manifest sets one (else the runtime's 64). */
export function buildServiceRatePolicy(rate: ManifestServiceRate | undefined): ServiceRatePolicy | null {
  const policy = buildRatePolicy('default', rate)
  if (policy === null || rate?.ipv6_prefix === undefined) return policy
  return { ...policy, ipv6PrefixLength: rate.ipv6_prefix }
}
