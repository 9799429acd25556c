import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Redis } from 'ioredis'

/** Counts one window: the first request of a key starts it (PEXPIRE), later ones read what is left of it. */
const COUNT_IN_WINDOW = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {current, tonumber(ARGV[1])}
end
return {current, redis.call('PTTL', KEYS[1])}
`

/** The client, once COUNT_IN_WINDOW is defined on it as a command (ioredis runs it by EVALSHA). */
interface WindowCounter {
  restmintCountInWindow(key: string, windowMs: number): Promise<[number, number]>
}

/**
 * A @fastify/rate-limit store counting in Redis under `<prefix><key>`, the
 * keys our limiters make (`ip|203.0.113.7`, `api|user:alice`), in the fixed
 * windows of the plugin's own Redis store. In its place because that store
 * writes `<prefix>undefinedundefined-<key>` for limiters made with
 * `createRateLimit`: each limiter gets a child store named after a route's
 * method and URL, which such a limiter has none of.
 */
export function redisRateStore(redis: Redis, prefix: string): FastifyRateLimitStoreCtor {
  if (!('restmintCountInWindow' in redis)) {
    redis.defineCommand('restmintCountInWindow', { numberOfKeys: 1, lua: COUNT_IN_WINDOW })
  }
  const counter = redis as Redis & WindowCounter
  return class RedisRateStore implements FastifyRateLimitStore {
    incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1], windowMs?: number): void {
      counter.restmintCountInWindow(`${prefix}${key}`, windowMs!).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (error: Error) => callback(error),
      )
    }

    // Every limiter's keys start with its tier's name already: one store serves them all.
    child(): FastifyRateLimitStore {
      return this
    }
  }
}
