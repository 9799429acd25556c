import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { isHealthRoute } from './health-routes.js'
import { ProblemError } from '../problems/problem-error.js'
import { rateLimitClientOf } from './rate-limit-client.js'
import { clientAddressOf, DEFAULT_IPV6_PREFIX_LENGTH } from './client-address.js'
import { redisRateStore } from './redis-rate-store.js'
import type { RatePolicy, ServiceRatePolicy } from '../contract/rate-policy.js'

export interface RateLimitOptions {
  /** The API's limit (`limits.rate`); resources without a `rate` of their own get it. */
  readonly service: ServiceRatePolicy
  /** Counts in Redis, shared by every instance, instead of in this process's memory. */
  readonly redis?: Redis
  /** Starts every Redis key, so several APIs (or tests) can share one Redis. */
  readonly redisKeyPrefix?: string
}

/**
 * How many times the API's limit one IP address may send, counted before any
 * credential is checked: a flood is cut off cheaply, while the clients behind
 * one NAT or proxy still get their own limits, counted per subject or API key.
 */
export const IP_LIMIT_FACTOR = 10

type Limiter = ReturnType<FastifyInstance['createRateLimit']>

/**
 * Rate limits with @fastify/rate-limit, in two tiers, neither on the health checks:
 *
 * - per IP address (clientAddressOf: canonical, IPv6 by network), in an
 *   `onRequest` hook: IP_LIMIT_FACTOR × `service`, before authentication
 *   verifies anything;
 * - per client (rateLimitClientOf: subject, API key or IP address), in a
 *   `preHandler` hook, after authentication: the route's resource's `rate`,
 *   else `service`.
 *
 * Every response the client tier saw carries `RateLimit-Policy` and
 * `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10, structured fields:
 * `"default";q=600;w=60` and `"default";r=599;t=42`), in place of the
 * plugin's `x-ratelimit-*` headers; past the limit, 429 problem+json with
 * `Retry-After`. When Redis fails, requests pass uncounted (and
 * /health/ready says Redis cannot be reached) rather than failing.
 * https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
 */
export async function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const { service, redis } = options
  // Imported here, not at the top: bundled by serve, it would load for every API (see registerAuthentication).
  const { default: fastifyRateLimit } = await import('@fastify/rate-limit')
  await app.register(fastifyRateLimit, {
    global: false,
    skipOnError: true,
    ...(redis ? { store: redisRateStore(redis, options.redisKeyPrefix ?? 'restmint:rate:') } : {}),
  })
  const ipv6PrefixLength = service.ipv6PrefixLength ?? DEFAULT_IPV6_PREFIX_LENGTH
  const addressOf = (request: FastifyRequest): string => clientAddressOf(request, ipv6PrefixLength)
  const clientOf = (request: FastifyRequest): string => rateLimitClientOf(request, addressOf(request))
  const limiters = new Map<string, Limiter>()
  /**
   * One limiter per tier: `ip`, `api` (the service's policy) or
   * `resource:<name>`, never by policy name alone, which a resource named
   * `ip` or `default` shares with a tier.
   */
  const limiterOf = (tier: string, policy: RatePolicy, keyOf: (request: FastifyRequest) => string): Limiter => {
    let limiter = limiters.get(tier)
    if (limiter === undefined) {
      // Key names start with the tier's, as the plugin's Redis store shares one key space between limiters.
      limiter = app.createRateLimit({
        max: policy.requests,
        timeWindow: policy.windowSeconds * 1000,
        keyGenerator: (request) => `${tier}|${keyOf(request)}`,
      })
      limiters.set(tier, limiter)
    }
    return limiter
  }
  const perIp: RatePolicy = {
    name: 'ip',
    requests: service.requests * IP_LIMIT_FACTOR,
    windowSeconds: service.windowSeconds,
  }
  app.addHook('onRequest', async (request, reply) => {
    if (isHealthRoute(request.routeOptions.url)) return
    await enforce(limiterOf('ip', perIp, addressOf), perIp, request, reply)
  })
  app.addHook('preHandler', async (request, reply) => {
    if (isHealthRoute(request.routeOptions.url)) return
    const own = request.routeOptions.config.ratePolicy
    const policy = own ?? service
    await enforce(limiterOf(own ? `resource:${own.name}` : 'api', policy, clientOf), policy, request, reply)
  })
}

async function enforce(limiter: Limiter, policy: RatePolicy, request: FastifyRequest, reply: FastifyReply) {
  const outcome = await limiter(request)
  if (outcome.isAllowed) return
  const name = JSON.stringify(policy.name)
  reply.header('ratelimit-policy', `${name};q=${policy.requests};w=${policy.windowSeconds}`)
  reply.header('ratelimit', `${name};r=${outcome.remaining};t=${outcome.ttlInSeconds}`)
  if (!outcome.isExceeded) return
  throw new ProblemError(
    'too_many_requests',
    `More than ${policy.requests} requests in ${policy.windowSeconds} s; send the next one in ${outcome.ttlInSeconds} s.`,
    { headers: { 'retry-after': String(outcome.ttlInSeconds) } },
  )
}
