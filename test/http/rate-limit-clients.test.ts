/**
 * Which client a request counts against when nothing identifies it but its
 * address (issue 18 item 20), behind `http.trust_proxy`: one IPv6 address
 * however written is one client, so is an IPv6 network (/64 unless
 * `limits.rate.ipv6_prefix` says otherwise), a forwarded value that is no
 * address is ignored (the socket's counts), and Redis keys read
 * `<prefix><tier>|<client>`.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fc from 'fast-check'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadManifestApi } from '../migrate/load-manifest-api.js'
import { DIALECTS, POSTGRES_URL } from '../support/test-storage.js'

const REDIS_URL = process.env.RESTMINT_TEST_REDIS ?? 'redis://127.0.0.1:6379'

/** Two requests a minute per client; the address is the one X-Forwarded-For gives (one trusted hop). */
const manifest = (rate: string) => `
restmint: 1
service: { title: Clients }
limits: { rate: ${rate} }
http: { trust_proxy: 1 }
versions: { v1: {} }
resources:
  notes:
    fields:
      title: { type: string, required: true }
`

describe.each(DIALECTS)('%s: rate limit clients by address', (dialect) => {
  const schema = `restmint_test_${randomBytes(6).toString('hex')}`
  const prefix = `restmint-test-${randomBytes(6).toString('hex')}:`
  const redis = new Redis(REDIS_URL, { lazyConnect: true })
  const servers: FastifyInstance[] = []
  const start = async (rate: string, options: { redisUrl?: string } = {}) => {
    const api = await loadManifestApi(manifest(rate))
    const app = await api.buildServer({
      db: dialect === 'sqlite' ? 'sqlite::memory:' : POSTGRES_URL,
      schema,
      docs: false,
      redisUrl: options.redisUrl ?? '',
      redisKeyPrefix: prefix,
    })
    servers.push(app)
    return app
  }
  /** The statuses of one GET per forwarded address, in order. */
  const statusesFrom = async (app: FastifyInstance, addresses: readonly string[]) => {
    const statuses: number[] = []
    for (const address of addresses) {
      statuses.push((await app.inject({ url: '/v1/notes', headers: { 'x-forwarded-for': address } })).statusCode)
    }
    return statuses
  }

  beforeAll(() => redis.connect())
  afterAll(async () => {
    for (const server of servers) await server.close()
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    redis.disconnect()
    if (dialect === 'sqlite') return
    const client = new pg.Client(POSTGRES_URL)
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await client.end()
  })

  it('counts one IPv6 address written four ways, or IPv4-mapped, as one client', async () => {
    const app = await start('{ requests: 2, per: 1m }')
    const ways = ['2001:db8::1', '2001:DB8:0:0:0:0:0:1', '2001:0db8:0000::0001', '[2001:db8::1]']
    expect(await statusesFrom(app, ways)).toEqual([200, 200, 429, 429])
    expect(await statusesFrom(app, ['198.51.100.7', '::ffff:198.51.100.7', '::FFFF:c633:6407'])).toEqual([
      200, 200, 429,
    ])
  })

  it('counts the addresses of one IPv6 /64 as one client, and another /64 apart', async () => {
    const app = await start('{ requests: 2, per: 1m }')
    const rotating = ['2001:db8:0:1::a', '2001:db8:0:1:ffff::b', '2001:db8:0:1:1234:5678:9abc:def0']
    expect(await statusesFrom(app, rotating)).toEqual([200, 200, 429])
    expect(await statusesFrom(app, ['2001:db8:0:2::a'])).toEqual([200])
  })

  it('groups IPv6 by the prefix length limits.rate.ipv6_prefix gives', async () => {
    const wide = await start('{ requests: 2, per: 1m, ipv6_prefix: 56 }')
    // 2001:db8:0:1::/64 and 2001:db8:0:ff::/64 are in one /56.
    expect(await statusesFrom(wide, ['2001:db8:0:1::a', '2001:db8:0:ff::a', '2001:db8:0:7f::a'])).toEqual([
      200, 200, 429,
    ])
    const exact = await start('{ requests: 2, per: 1m, ipv6_prefix: 128 }')
    expect(await statusesFrom(exact, ['2001:db8:0:1::a', '2001:db8:0:1::b', '2001:db8:0:1::c'])).toEqual([
      200, 200, 200,
    ])
  })

  it('ignores a forwarded value that is no address: the socket address counts, one client', async () => {
    const app = await start('{ requests: 2, per: 1m }')
    const garbage = ['garbage', 'not an address', '999.1.1.1', '010.0.0.1', '2001:db8::g']
    expect(await statusesFrom(app, garbage)).toEqual([200, 200, 429, 429, 429])
    // The socket's address is inject's 127.0.0.1: a request forwarded from nowhere is that client too.
    expect((await app.inject({ url: '/v1/notes' })).statusCode).toBe(429)
  })

  it('answers whatever a forwarded value holds: never a 500, whichever client it counts against', async () => {
    const app = await start('{ requests: 1000000, per: 1m }')
    const forwarded = fc.oneof(fc.string(), fc.ipV4(), fc.ipV4Extended(), fc.ipV6(), fc.constant('fe80::1%eth0'))
    await fc.assert(
      fc.asyncProperty(forwarded, async (address) => {
        const response = await app.inject({ url: '/v1/notes', headers: { 'x-forwarded-for': address } })
        expect(response.statusCode).toBe(200)
      }),
      { numRuns: 200 },
    )
  })

  it('keys Redis counts <prefix><tier>|<client>, the client in its canonical form', async () => {
    const app = await start('{ requests: 2, per: 1m }', { redisUrl: REDIS_URL })
    const address = '2001:DB8:0:3:0:0:0:1'
    expect(await statusesFrom(app, [address, address, address])).toEqual([200, 200, 429])
    expect((await redis.keys(`${prefix}*`)).sort()).toEqual([
      `${prefix}api|ip:2001:db8:0:3::/64`,
      `${prefix}ip|2001:db8:0:3::/64`,
    ])
  })
})
