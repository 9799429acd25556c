/**
 * /health/live and /health/ready (issue 10, "Health and shutdown"), and what
 * an exhausted PostgreSQL pool answers.
 */
import { randomBytes } from 'node:crypto'
import { createServer, connect, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { api, buildServer } from '../fixtures/shop-api/generated/server.js'
import { DIALECTS, POSTGRES_URL, openTestStorage } from '../support/test-storage.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'

function expectUnavailable(response: LightMyRequestResponse, detail: RegExp): void {
  expect(response.statusCode, response.body).toBe(503)
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(response.json()).toMatchObject({
    status: 503,
    code: 'service_unavailable',
    detail: expect.stringMatching(detail),
  })
}

describe.each(DIALECTS)('%s: health checks', (dialect) => {
  it('answers live and ready outside the version prefix, and in no OpenAPI document', async () => {
    const storage = await openTestStorage(dialect)
    const app = await buildServer({ storage: storage.storage })
    try {
      const live = await app.inject('/health/live')
      expect([live.statusCode, live.json(), live.headers['cache-control']]).toEqual([
        200,
        { status: 'live' },
        'no-store',
      ])
      const ready = await app.inject('/health/ready')
      expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready' }])
      expect((await app.inject('/v1/health/ready')).statusCode).toBe(404)
      const post = await app.inject({ method: 'POST', url: '/health/ready' })
      expect([post.statusCode, post.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS'])
      for (const version of api.versions) {
        expect(
          Object.keys(((await version.openapi()).default as { paths: object }).paths).filter((path) =>
            path.includes('health'),
          ),
        ).toEqual([])
      }
    } finally {
      await app.close()
      await storage.dispose()
    }
  })

  it('says not ready once the database is gone, and live still', async () => {
    const storage = await openTestStorage(dialect)
    const app = await buildServer({ storage: storage.storage })
    try {
      await storage.storage.close()
      expectUnavailable(await app.inject('/health/ready'), /^The database cannot be reached/)
      expect((await app.inject('/health/live')).statusCode).toBe(200)
    } finally {
      await app.close()
      await storage.dispose()
    }
  })
})

/**
 * A TCP relay to PostgreSQL the test can break: `stop()` closes its port and
 * every connection (the database is gone), `freeze()` keeps connections open
 * but passes nothing on (the database does not answer).
 */
async function relayToPostgres(): Promise<{ url: string; freeze(): void; stop(): Promise<void> }> {
  const target = new URL(POSTGRES_URL)
  const sockets = new Set<Socket>()
  let frozen = false
  const relay: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname)
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from)
      from.on('data', (chunk) => frozen || to.write(chunk))
      from.on('close', () => to.destroy())
      from.on('error', () => to.destroy())
    }
  })
  await new Promise<void>((listening) => relay.listen(0, '127.0.0.1', listening))
  const url = new URL(POSTGRES_URL)
  url.host = `127.0.0.1:${(relay.address() as AddressInfo).port}`
  return {
    url: url.href,
    freeze: () => void (frozen = true),
    stop: async () => {
      const closed = new Promise((done) => relay.close(done))
      for (const socket of sockets) socket.destroy()
      await closed
    },
  }
}

async function withPostgresServer(
  db: string,
  options: Parameters<typeof buildServer>[0],
  test: (app: FastifyInstance, schema: string) => Promise<void>,
): Promise<void> {
  const schema = `restmint_test_${randomBytes(6).toString('hex')}`
  const app = await buildServer({ db, schema, ...options })
  try {
    await test(app, schema)
  } finally {
    await app.close()
    const client = new pg.Client(POSTGRES_URL)
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await client.end()
  }
}

describe.skipIf(POSTGRES_OFF)('postgres: readiness and the connection pool', () => {
  it('is not ready once the database refuses connections', async () => {
    const relay = await relayToPostgres()
    await withPostgresServer(relay.url, {}, async (app) => {
      expect((await app.inject('/health/ready')).statusCode).toBe(200)
      await relay.stop()
      expectUnavailable(await app.inject('/health/ready'), /^The database cannot be reached/)
    })
  })

  it('is not ready when the database does not answer within the readiness timeout', async () => {
    const relay = await relayToPostgres()
    await withPostgresServer(relay.url, {}, async (app) => {
      expect((await app.inject('/health/ready')).statusCode).toBe(200)
      relay.freeze()
      expectUnavailable(await app.inject('/health/ready'), /^The database did not answer within 2000 ms\.$/)
      // The query still waiting on the frozen connection fails with it, so the pool can close.
      await relay.stop()
    })
  })

  it('answers 503 with Retry-After when no connection comes free within the pool timeout', async () => {
    await withPostgresServer(POSTGRES_URL, { pool: { size: 1, timeoutMs: 100 } }, async (app, schema) => {
      const created = await app.inject({ method: 'POST', url: '/v1/authors', payload: { name: 'Ada' } })
      const author = `/v1/authors/${created.json<{ data: { id: number } }>().data.id}`
      const holder = new pg.Client(POSTGRES_URL)
      await holder.connect()
      try {
        await holder.query('BEGIN')
        await holder.query(`LOCK TABLE "${schema}".authors IN ACCESS EXCLUSIVE MODE`)
        // It takes the pool's only connection and keeps it waiting.
        const waiting = app.inject(author)
        await waitForLockWaiter(holder, `"${schema}".authors`)
        const refused = await app.inject(author)
        expectUnavailable(refused, /^Every database connection is busy/)
        expect(refused.headers['retry-after']).toBe('1')
        await holder.query('COMMIT')
        expect((await waiting).statusCode).toBe(200)
      } finally {
        await holder.end()
      }
    })
  })

  it('holds one connection for a list: with a pool of one, a list waits for a locked table as a single GET does', async () => {
    await withPostgresServer(POSTGRES_URL, { pool: { size: 1, timeoutMs: 100 } }, async (app, schema) => {
      for (const name of ['Ada', 'Grace']) await app.inject({ method: 'POST', url: '/v1/authors', payload: { name } })
      const holder = new pg.Client(POSTGRES_URL)
      await holder.connect()
      try {
        await holder.query('BEGIN')
        await holder.query(`LOCK TABLE "${schema}".authors IN ACCESS EXCLUSIVE MODE`)
        // A full page, so the list counts too: the page, then the count, never both at once.
        const exact = app.inject('/v1/authors?per_page=1')
        await waitForLockWaiter(holder, `"${schema}".authors`)
        // Refused after the pool timeout, which a second statement of the list, queued before it, would have met first.
        expectUnavailable(await app.inject('/v1/authors/1'), /^Every database connection is busy/)
        await holder.query('COMMIT')
        const listed = await exact
        expect(listed.statusCode, listed.body).toBe(200)
        expect(listed.json()).toMatchObject({ meta: { count: 'exact', total: 2 } })
      } finally {
        await holder.end()
      }
    })
  })
})

/** Resolves once some session waits for a lock on `table`. */
async function waitForLockWaiter(client: pg.Client, table: string): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ waiting: boolean }>(
      'SELECT count(*) > 0 AS waiting FROM pg_locks WHERE relation = $1::regclass AND NOT granted',
      [table],
    )
    if (rows[0]!.waiting) return
    await new Promise((next) => setTimeout(next, 20))
  }
}
