import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApiServer, defineApp } from '../../runtime/index.js'
import { api } from '../fixtures/shop-api/generated/server.js'
import { allTables } from '../fixtures/shop-api/generated/schema.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'
import { call, openHostileStorage, type HostileStorage } from './hostile-pg-support.js'

/**
 * A DELETE whose restrict check passed, then a referencing row committed
 * before the DELETE ran: PostgreSQL refuses the DELETE (foreign key), and the
 * storage checks the restrictions again to answer 409 naming them. With an
 * afterDelete hook the DELETE runs in the hook's transaction, which the
 * refused statement has aborted: the second check must not run in it.
 * The race is made certain: another connection inserts the referencing post
 * and holds its transaction open, so the DELETE's restrict check does not see
 * it and its DELETE waits on the category's row lock until that commits.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

for (const withHook of [false, true]) {
  describe.skipIf(POSTGRES_OFF)(
    `hostile: a referencing row committed under a DELETE (${withHook ? 'afterDelete hook' : 'no hook'})`,
    () => {
      let hostile: HostileStorage
      let app: FastifyInstance
      let admin: pg.Client
      const deleted: number[] = []

      beforeAll(async () => {
        hostile = await openHostileStorage(allTables, { size: 2, timeoutMs: 10_000 })
        app = withHook
          ? await buildApiServer(
              { ...api, hooks: { categories: ['afterDelete'] } },
              {
                storage: hostile.storage,
                docs: false,
                app: defineApp({
                  hooks: { categories: { afterDelete: async ({ record }) => void deleted.push(record.id as number) } },
                }),
              },
            )
          : await buildApiServer(api, { storage: hostile.storage, docs: false })
        admin = await hostile.admin()
      })
      afterAll(async () => {
        await app?.close()
        await hostile?.dispose()
      })

      it('answers 409 restrict naming the posts, and the category stays', async () => {
        const category = (await call(app, { method: 'POST', url: '/v1/categories', payload: { name: 'held' } })).body
          .data
        await admin.query('begin')
        await admin.query(
          `insert into posts (title, category_id, created_at, updated_at) values ('racer', $1, now(), now())`,
          [category.id],
        )
        const pending = call(app, { method: 'DELETE', url: `/v1/categories/${category.id}` })
        await sleep(300)
        await admin.query('commit')
        const answer = await pending
        expect(answer.status, JSON.stringify(answer.body)).toBe(409)
        expect(answer.body.code).toBe('still_referenced')
        expect(deleted).toEqual([])
        expect((await admin.query('select 1 from categories where id = $1', [category.id])).rows).toHaveLength(1)
        // The pool serves on.
        expect((await call(app, { method: 'POST', url: '/v1/categories', payload: { name: 'next' } })).status).toBe(201)
      })
    },
  )
}
