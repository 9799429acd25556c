import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allTables as hooksTables } from '../fixtures/hooks-api/generated/schema.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'
import {
  backendsOf,
  buildHooksApp,
  call,
  openHostileStorage,
  type Answer,
  type HostileStorage,
} from './hostile-pg-support.js'

/**
 * Hostile: thousands of requests the server refuses (unique violations as
 * plain statements and inside a hook's transaction, stale If-Match, an
 * afterCreate that throws) keep their connections: the pool's backends seen
 * in pg_stat_activity throughout stay the same few.
 */
describe.skipIf(POSTGRES_OFF)('hostile: refused writes keep their connections', () => {
  let hostile: HostileStorage
  let app: FastifyInstance
  let admin: pg.Client
  const SIZE = 2

  beforeAll(async () => {
    hostile = await openHostileStorage(hooksTables, { size: SIZE, timeoutMs: 30_000 })
    app = await buildHooksApp(hostile.storage)
    admin = await hostile.admin()
  })
  afterAll(async () => {
    await app?.close()
    await hostile?.dispose()
  })

  const H = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = {}) =>
    call(app, { method, url, headers, ...(payload ? { payload } : {}) })

  it('3000 refused writes open no new connection', async () => {
    const label = (await H('POST', '/v2/labels', { name: 'taken' })).body.data
    const order = (await H('POST', '/v2/orders', { customer: 'linked' })).body.data
    expect((await H('POST', `/v2/orders/${order.id}/labels`, { label_id: label.id })).status).toBe(201)
    const seen = new Set<number>()
    for (const backend of await backendsOf(admin, hostile.application)) seen.add(backend.pid)
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        for (const backend of await backendsOf(admin, hostile.application)) seen.add(backend.pid)
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
    })()
    const kinds: Record<string, (i: number) => Promise<Answer>> = {
      plain: () => H('POST', '/v2/labels', { name: 'taken' }),
      link: () => H('POST', `/v2/orders/${order.id}/labels`, { label_id: label.id }),
      stale: () => H('PATCH', `/v2/orders/${order.id}`, { total: 1 }, { 'if-match': '"AAAAAAAAAAAAAAAAAAAAAA"' }),
      hook: () => H('POST', '/v2/orders', { customer: 'fail-after' }),
    }
    const expected: Record<string, number> = { plain: 409, link: 409, stale: 412, hook: 500 }
    const wrong: string[] = []
    const names = Object.keys(kinds)
    for (let batch = 0; batch < 60; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const kind = names[(batch * 50 + i) % names.length]!
          const answer = await kinds[kind]!(i)
          if (answer.status !== expected[kind]) wrong.push(`${kind}: ${answer.status} ${JSON.stringify(answer.body)}`)
        }),
      )
    }
    sampling = false
    await sampler
    expect(wrong).toEqual([])
    expect(seen.size).toBeGreaterThan(0)
    expect([...seen].length, 'backends seen').toBeLessThanOrEqual(SIZE)
    const { rows } = await admin.query(
      `select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`,
    )
    expect(Number(rows[0].n)).toBeGreaterThan(0)
  }, 120_000)
})
