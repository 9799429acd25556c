/**
 * A rate limit, as the manifest's `limits.rate` (the API's, named `default`)
 * or a resource's `rate` (named after the resource) gives it: at most
 * `requests` per client in each window of `windowSeconds`.
 */
export interface RatePolicy {
  /** Names the policy in the `RateLimit` and `RateLimit-Policy` headers. */
  readonly name: string
  readonly requests: number
  readonly windowSeconds: number
}

/** The manifest's `limits.rate`: the API's policy, and how rate limits tell clients apart by address. */
export interface ServiceRatePolicy extends RatePolicy {
  /** IPv6 addresses count as one client per network of this prefix length (`ipv6_prefix`); default 64. */
  readonly ipv6PrefixLength?: number
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A resource's own rate limit (registerResource sets it), in place of the API's. */
    ratePolicy?: RatePolicy
  }
}
