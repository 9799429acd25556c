import { describe, expect, it } from 'vitest'
import { connectRedis } from '../../runtime/ops/connect-redis.js'

describe('connectRedis', () => {
  it('names the address without its password, what failed and the way out', async () => {
    // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
    await expect(connectRedis('redis://rate:s3cret@127.0.0.1:1')).rejects.toThrow(
      /^cannot connect to Redis at redis:\/\/rate:\*+@127\.0\.0\.1:1: .+; start Redis there, or set REDIS_URL='' to count each instance's rate limits in its own memory$/,
    )
  })
})
