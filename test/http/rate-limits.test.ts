/**
 * Rate limits (issue 10, "Rate limits"): per client, a per-IP tier before
 * authentication, draft RateLimit headers on every response, 429 problems
 * with Retry-After; counted in memory, or in Redis shared by servers.
 * Clients are told apart by X-Forwarded-For, which the serving fixture trusts
 * for one hop (http.trust_proxy: 1).
 */
import { randomBytes } from 'node:crypto'
import { connect, createServer, type AddressInfo, type Socket } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleErrors } from '../../runtime/problems/handle-errors.js'
import { registerRateLimits } from '../../runtime/ops/rate-limits.js'
import { identifyRateLimitClient } from '../../runtime/index.js'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildServer } from '../fixtures/serving-api/generated/server.js'
import { allTables } from '../fixtures/serving-api/generated/schema.js'
import { openTestStorage, type TestStorage } from '../support/test-storage.js'

const REDIS_URL = process.env.RESTMINT_TEST_REDIS ?? 'redis://127.0.0.1:6379'
const JWT_SECRET = 'serving-test-secret-of-at-least-32-bytes'

describe('rate limits in memory', () => {
  let app: FastifyInstance
  let storage: TestStorage

  beforeAll(async () => {
    storage = await openTestStorage('sqlite', allTables)
    app = await buildServer({
      storage: storage.storage,
      docs: false,
      redisUrl: '',
      env: { SERVING_TEST_JWT_SECRET: JWT_SECRET },
    })
  })
  afterAll(async () => {
    await app?.close()
    await storage?.dispose()
  })

  const get = (url: string, client: string) => app.inject({ url, headers: { 'x-forwarded-for': client } })

  it('sends the draft RateLimit-Policy and RateLimit headers, and no x-ratelimit ones', async () => {
    const first = await get('/v1/notes', '10.0.0.1')
    const second = await get('/v1/notes', '10.0.0.1')
    expect(first.statusCode).toBe(200)
    expect(first.headers['ratelimit-policy']).toBe('"default";q=1000;w=60')
    expect(first.headers.ratelimit).toMatch(/^"default";r=999;t=(60|59)$/)
    expect(second.headers.ratelimit).toMatch(/^"default";r=998;t=\d+$/)
    expect(Object.keys(first.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([])
    // Problems too: a 404 from a route, and a path no route serves.
    const missing = await get('/v1/notes/999', '10.0.0.1')
    expect([missing.statusCode, missing.headers.ratelimit]).toEqual([404, expect.stringMatching(/r=997;/)])
    const noRoute = await get('/v1/nothing', '10.0.0.1')
    expect([noRoute.statusCode, noRoute.headers.ratelimit]).toEqual([404, expect.stringMatching(/r=996;/)])
    // Health checks are never limited.
    expect((await get('/health/ready', '10.0.0.1')).headers.ratelimit).toBeUndefined()
  })

  it("counts a resource's own rate per client, and answers 429 problem+json with Retry-After past it", async () => {
    const statuses: number[] = []
    for (let index = 0; index < 4; index++) statuses.push((await get('/v1/tags', '10.0.0.2')).statusCode)
    expect(statuses).toEqual([200, 200, 200, 429])
    const refused = await get('/v1/tags', '10.0.0.2')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(refused.json()).toMatchObject({ status: 429, code: 'too_many_requests' })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.headers['ratelimit-policy']).toBe('"tags";q=3;w=60')
    expect(refused.headers.ratelimit).toMatch(/^"tags";r=0;t=\d+$/)
    // Another client, and another resource of the same client, are counted apart.
    expect((await get('/v1/tags', '10.0.0.3')).statusCode).toBe(200)
    expect((await get('/v1/notes', '10.0.0.2')).statusCode).toBe(200)
  })

  it('counts a verified caller by its subject, whatever its address, apart from anonymous callers at that address', async () => {
    const token = (sub: string | undefined) =>
      signJwt(
        { iss: 'https://auth.serving.test/', aud: 'serving-api', sub, exp: Math.floor(Date.now() / 1000) + 60 },
        { alg: 'HS256', secret: JWT_SECRET },
      )
    const asCaller = (sub: string | undefined, address: string) =>
      app.inject({
        url: '/v1/tags',
        headers: { 'x-forwarded-for': address, authorization: `Bearer ${token(sub)}` },
      })
    const statuses: number[] = []
    // One subject from three addresses: one budget of 3.
    for (const address of ['10.0.1.1', '10.0.1.2', '10.0.1.3', '10.0.1.4']) {
      statuses.push((await asCaller('alice', address)).statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 429])
    // Another subject, and an anonymous caller, at an address alice used: budgets of their own.
    expect((await asCaller('bob', '10.0.1.1')).statusCode).toBe(200)
    expect((await get('/v1/tags', '10.0.1.1')).statusCode).toBe(200)
    // Tokens without a subject name no caller: each counts against its own address, not one shared budget.
    const subjectless: number[] = []
    for (const address of ['10.0.2.1', '10.0.2.2', '10.0.2.3', '10.0.2.4']) {
      subjectless.push((await asCaller(undefined, address)).statusCode)
    }
    expect(subjectless).toEqual([200, 200, 200, 200])
    // A token that does not verify is a 401 before it is counted.
    const forged = await app.inject({
      url: '/v1/tags',
      headers: { 'x-forwarded-for': '10.0.1.1', authorization: `Bearer ${token('alice')}x` },
    })
    expect(forged.statusCode).toBe(401)
  })
})

/** A bare server with the rate limits of `requests` per minute, where X-Test-Client identifies the client. */
async function buildLimitedServer(requests: number): Promise<FastifyInstance> {
  const app = Fastify({ trustProxy: true })
  // What authentication does once it has verified a caller, in a hook before the client tier's preHandler.
  app.addHook('onRequest', async (request) => {
    const client = request.headers['x-test-client']
    if (typeof client === 'string') identifyRateLimitClient(request, client)
  })
  handleErrors(app, { bodyMaxBytes: 1024 })
  await registerRateLimits(app, { service: { name: 'default', requests, windowSeconds: 60 } })
  app.get('/things', async () => ({ data: [] }))
  await app.ready()
  return app
}

describe('rate limit tiers', () => {
  it('counts an identified client by its name, not by its address', async () => {
    const app = await buildLimitedServer(2)
    try {
      const names = ['sub:alice', 'sub:alice', 'key:ci', 'sub:alice']
      const statuses: number[] = []
      for (const [index, name] of names.entries()) {
        const headers = { 'x-forwarded-for': `10.1.0.${index}`, 'x-test-client': name }
        statuses.push((await app.inject({ url: '/things', headers })).statusCode)
      }
      expect(statuses).toEqual([200, 200, 200, 429])
    } finally {
      await app.close()
    }
  })

  it('cuts off a flood from one address at ten times the limit, before anything else runs', async () => {
    const app = await buildLimitedServer(2)
    try {
      const statuses: number[] = []
      for (let index = 0; index < 21; index++) {
        // A new client name each time: only the per-IP tier sees them all.
        const headers = { 'x-forwarded-for': '10.1.1.1', 'x-test-client': `sub:${index}` }
        statuses.push((await app.inject({ url: '/things', headers })).statusCode)
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(20)
      const refused = await app.inject({ url: '/things', headers: { 'x-forwarded-for': '10.1.1.1' } })
      expect([refused.statusCode, refused.headers['ratelimit-policy']]).toEqual([429, '"ip";q=20;w=60'])
      expect(refused.json()).toMatchObject({ code: 'too_many_requests' })
    } finally {
      await app.close()
    }
  })
})

describe('rate limits of resources named like a tier', () => {
  it('keeps the rates of resources named ip and default apart from the per-IP tier and the API’s limit', async () => {
    const app = Fastify()
    handleErrors(app, { bodyMaxBytes: 1024 })
    await registerRateLimits(app, { service: { name: 'default', requests: 5, windowSeconds: 60 } })
    for (const name of ['ip', 'default']) {
      const ratePolicy = { name, requests: 1, windowSeconds: 60 }
      app.get(`/${name}`, { config: { ratePolicy } }, async () => ({ data: [] }))
    }
    app.get('/things', async () => ({ data: [] }))
    await app.ready()
    try {
      const statuses: number[] = []
      for (const url of ['/ip', '/ip', '/default', '/default', '/things'])
        statuses.push((await app.inject({ url })).statusCode)
      expect(statuses).toEqual([200, 429, 200, 429, 200])
    } finally {
      await app.close()
    }
  })
})

describe('rate limits in Redis', () => {
  const prefix = `restmint-test-${randomBytes(6).toString('hex')}:`
  const servers: FastifyInstance[] = []
  const storages: TestStorage[] = []
  const redis = new Redis(REDIS_URL, { lazyConnect: true })

  beforeAll(async () => {
    for (let index = 0; index < 2; index++) {
      const storage = await openTestStorage('sqlite', allTables)
      storages.push(storage)
      servers.push(
        await buildServer({ storage: storage.storage, docs: false, redisUrl: REDIS_URL, redisKeyPrefix: prefix }),
      )
    }
    await redis.connect()
  })
  afterAll(async () => {
    for (const server of servers) await server.close()
    for (const storage of storages) await storage.dispose()
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    redis.disconnect()
  })

  it('holds one limit across servers sharing Redis, under their key prefix', async () => {
    const statuses: number[] = []
    for (let index = 0; index < 6; index++) {
      const server = servers[index % 2]!
      statuses.push((await server.inject({ url: '/v1/tags', headers: { 'x-forwarded-for': '10.2.0.1' } })).statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429])
    expect((await redis.keys(`${prefix}*`)).length).toBeGreaterThan(0)
  })

  it('is ready only while Redis answers, and lets requests pass uncounted while it does not', async () => {
    const relay = await relayTo(new URL(REDIS_URL))
    const storage = await openTestStorage('sqlite', allTables)
    const app = await buildServer({
      storage: storage.storage,
      docs: false,
      redisUrl: relay.url,
      redisKeyPrefix: prefix,
    })
    try {
      expect((await app.inject('/health/ready')).statusCode).toBe(200)
      await relay.stop()
      const ready = await app.inject('/health/ready')
      expect([ready.statusCode, ready.json().detail]).toEqual([503, expect.stringMatching(/^Redis cannot be reached/)])
      expect((await app.inject({ url: '/v1/notes', headers: { 'x-forwarded-for': '10.2.0.2' } })).statusCode).toBe(200)
    } finally {
      await app.close()
      await storage.dispose()
    }
  })
})

/** A TCP relay to `target` that `stop()` closes, port and connections: the server behind it is gone. */
async function relayTo(target: URL): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const relay = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => socket.destroy())
      socket.on('close', () => sockets.delete(socket))
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  const { port } = relay.address() as AddressInfo
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => relay.close(resolve))
    },
  }
}
