import type { Redis } from 'ioredis'
import { redactCredentials } from '../storage/redact-credentials.js'
import { ServerConfigurationError } from './server-configuration-error.js'

/** How long a Redis command may take before it fails (and the rate limit lets the request pass uncounted). */
const COMMAND_TIMEOUT_MS = 1_000

/**
 * A connected ioredis client for `url` (`redis://…`), loaded only when a
 * server uses Redis. Commands fail at once while the connection is down
 * rather than queue behind it (so a request never waits for Redis to come
 * back), and the client keeps reconnecting in the background.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
  })
  // Reconnection errors are reported by /health/ready; without a listener ioredis would print each one.
  redis.on('error', () => {})
  try {
    await redis.connect()
  } catch (error) {
    redis.disconnect()
    throw new ServerConfigurationError(
      `cannot connect to Redis at ${redactCredentials(url)}: ${(error as Error).message}; start Redis there, ` +
        "or set REDIS_URL='' to count each instance's rate limits in its own memory",
    )
  }
  return redis
}

/** Quits cleanly (the server answers what it was sent first), or drops a connection that is down. */
export async function disconnectRedis(redis: Redis): Promise<void> {
  try {
    await redis.quit()
  } catch {
    redis.disconnect()
  }
}
