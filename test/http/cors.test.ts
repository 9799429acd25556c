/** CORS (issue 10, "CORS") with @fastify/cors, for the serving fixture's `http.cors`. */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/serving-api/generated/server.js'
import { allTables } from '../fixtures/serving-api/generated/schema.js'
import { openTestStorage, type TestStorage } from '../support/test-storage.js'

const ORIGIN = 'https://app.example.com'

describe('CORS', () => {
  let app: FastifyInstance
  let storage: TestStorage

  beforeAll(async () => {
    storage = await openTestStorage('sqlite', allTables)
    app = await buildServer({ storage: storage.storage, docs: false, redisUrl: '' })
  })
  afterAll(async () => {
    await app?.close()
    await storage?.dispose()
  })

  it('answers a preflight from a configured origin with every generated method and the headers clients send', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/v1/notes/1',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, if-match, content-type',
      },
    })
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE')
    expect(response.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, If-Match, If-None-Match',
    )
    expect(response.headers['access-control-max-age']).toBe('600')
    // A preflight is no request of the client's: no rate limit counts it.
    expect(response.headers.ratelimit).toBeUndefined()
  })

  it('exposes the headers clients act on, to configured origins only', async () => {
    const allowed = await app.inject({ url: '/v1/notes', headers: { origin: ORIGIN } })
    expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(allowed.headers['access-control-expose-headers']).toBe(
      'ETag, Location, Link, Deprecation, Sunset, RateLimit, RateLimit-Policy, Retry-After, WWW-Authenticate',
    )
    expect(allowed.headers.vary).toBe('Origin, Accept')
    const other = await app.inject({ url: '/v1/notes', headers: { origin: 'https://evil.example' } })
    expect(other.statusCode).toBe(200)
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('leaves requests without Origin, and OPTIONS that is no preflight, to the routes', async () => {
    const options = await app.inject({ method: 'OPTIONS', url: '/v1/notes' })
    expect([options.statusCode, options.headers.allow]).toEqual([204, 'GET, HEAD, POST, OPTIONS'])
    expect(options.headers['access-control-allow-origin']).toBeUndefined()
    expect((await app.inject({ url: '/v1/notes' })).headers.vary).toBe('Origin, Accept')
    const notPreflight = await app.inject({ method: 'OPTIONS', url: '/v1/notes', headers: { origin: ORIGIN } })
    expect([notPreflight.statusCode, notPreflight.headers.allow]).toEqual([204, 'GET, HEAD, POST, OPTIONS'])
    // @fastify/cors's catch-all OPTIONS route makes no unknown path known: still 404, not 405.
    const unknown = await app.inject({ method: 'GET', url: '/v1/nothing' })
    expect(unknown.statusCode).toBe(404)
    const unknownOptions = await app.inject({ method: 'OPTIONS', url: '/v1/nothing' })
    expect(unknownOptions.statusCode).toBe(404)
  })
})
