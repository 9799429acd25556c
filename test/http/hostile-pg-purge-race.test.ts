import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApiServer } from '../../runtime/index.js'
import { api } from '../fixtures/soft-delete-api/generated/server.js'
import { allTables, postsTable } from '../fixtures/soft-delete-api/generated/schema.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'
import { call, openHostileStorage, type HostileStorage } from './hostile-pg-support.js'

/**
 * A purge whose restrict check passed, then a review of the post committed
 * before its DELETE ran (another connection inserted it and held its
 * transaction open): the post is kept, as one held by a review from the start.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(POSTGRES_OFF)('hostile: a review committed under a purge', () => {
  let hostile: HostileStorage
  let app: FastifyInstance
  let admin: pg.Client

  beforeAll(async () => {
    hostile = await openHostileStorage(allTables, { size: 2, timeoutMs: 10_000 })
    app = await buildApiServer(api, {
      storage: hostile.storage,
      docs: false,
      env: { SOFT_DELETE_TEST_JWT_SECRET: 'x'.repeat(32) },
    })
    admin = await hostile.admin()
  })
  afterAll(async () => {
    await app?.close()
    await hostile?.dispose()
  })

  it('keeps the post and purges the others', async () => {
    const ids: number[] = []
    for (let i = 0; i < 3; i++) {
      const post = (await call(app, { method: 'POST', url: '/v1/posts', payload: { title: 't', slug: `purge-${i}` } }))
        .body.data
      expect((await call(app, { method: 'DELETE', url: `/v1/posts/${post.id}` })).status).toBe(204)
      ids.push(post.id)
    }
    await admin.query('begin')
    await admin.query(`insert into reviews (stars, post_id, created_at, updated_at) values (3, $1, now(), now())`, [
      ids[0],
    ])
    const purging = hostile.storage.purge(postsTable, new Date(Date.now() + 60_000).toISOString(), 10)
    purging.catch(() => {})
    await sleep(300)
    await admin.query('commit')
    const result = await purging.catch((error) => error)
    const { rows } = await admin.query('select id from posts order by id')
    expect(result).toEqual({ purged: 2, kept: 1 })
    expect(rows.map((row) => Number(row.id))).toEqual([ids[0]])
  })
})
