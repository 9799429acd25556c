import { isIP } from 'node:net'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'

/**
 * HTTP_TRUST_PROXY: `http.trust_proxy` is a hop count (a whole number, at
 * least 1) or a non-empty list of addresses and CIDRs, none of which covers
 * every address. HTTP_CORS_ORIGIN: each of `http.cors.origins` is an absolute
 * http(s) origin, or `*` alone.
 */
export function checkHttp(context: CheckContext, data: unknown): void {
  const http = asRecord(asRecord(data)?.http)
  if (http === null) return
  if ('trust_proxy' in http) checkTrustProxy(context, http.trust_proxy)
  const origins = asRecord(http.cors)?.origins
  if (Array.isArray(origins)) checkOrigins(context, origins)
}

function checkTrustProxy(context: CheckContext, value: unknown): void {
  const path = ['http', 'trust_proxy']
  if (Array.isArray(value) && value.length > 0) {
    value.forEach((entry, index) => {
      const problem = describeProxyAddress(entry)
      if (problem) context.report('HTTP_TRUST_PROXY', problem, context.atValue([...path, index]))
    })
    return
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return
  const trustsAll = value === true || value === 'any' || value === '*'
  context.report(
    'HTTP_TRUST_PROXY',
    trustsAll
      ? `trust_proxy ${JSON.stringify(value)} would believe X-Forwarded-For from anyone, so any client could pick ` +
          'the address rate limits count; give the number of proxies in front of the server (e.g. 1) or their CIDRs'
      : `trust_proxy must be a number of proxy hops (at least 1) or a list of proxy addresses and CIDRs, ` +
          `not ${JSON.stringify(value)}`,
    context.atValue(path),
  )
}

/** What is wrong with one trusted proxy entry: not an address or CIDR, or a CIDR covering every address. */
function describeProxyAddress(entry: unknown): string | undefined {
  const text = typeof entry === 'string' ? entry : JSON.stringify(entry)
  const [address, prefix, ...rest] = typeof entry === 'string' ? entry.split('/') : []
  const family = address === undefined ? 0 : isIP(address)
  const bits = family === 6 ? 128 : 32
  const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits)
  if (family === 0 || !validPrefix || rest.length > 0) {
    return `trust_proxy entry ${text} is not an IP address or CIDR; write e.g. 10.0.0.0/8 or 192.168.1.7`
  }
  if (prefix !== undefined && Number(prefix) === 0) {
    return `trust_proxy entry ${text} covers every address, so any client could pick the address rate limits count; name your proxies' network`
  }
  return undefined
}

function checkOrigins(context: CheckContext, origins: readonly unknown[]): void {
  origins.forEach((origin, index) => {
    if (typeof origin !== 'string') return
    const path = ['http', 'cors', 'origins', index]
    if (origin === '*') {
      if (origins.length > 1) {
        context.report(
          'HTTP_CORS_ORIGIN',
          '`*` allows every origin, so it stands alone; remove it or the other origins',
          context.atValue(path),
        )
      }
      return
    }
    const problem = describeOrigin(origin)
    if (problem) context.report('HTTP_CORS_ORIGIN', problem, context.atValue(path))
  })
}

function describeOrigin(origin: string): string | undefined {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return `origin ${JSON.stringify(origin)} is not an absolute URL; write it as https://app.example.com`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `origin ${JSON.stringify(origin)} is not http or https; browsers send web origins as https://host[:port]`
  }
  // An origin is scheme, host and port only (RFC 6454): browsers never send a path, so one would never match.
  if (url.origin !== origin) {
    return `origin ${JSON.stringify(origin)} is not an origin (scheme, host, optional port, nothing more); write ${url.origin}`
  }
  return undefined
}
