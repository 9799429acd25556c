import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allTables as hooksTables } from '../fixtures/hooks-api/generated/schema.js'
import { allTables as softTables, postsTable } from '../fixtures/soft-delete-api/generated/schema.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'
import {
  backendsOf,
  buildHooksApp,
  buildSoftApp,
  call,
  openHostileStorage,
  shuffle,
  watchProcess,
  type Answer,
  type HostileStorage,
} from './hostile-pg-support.js'

/**
 * Hostile: hundreds of concurrent HTTP writes on PostgreSQL through a pool of
 * two connections, mixing what fails inside and outside transactions: unique
 * conflicts (plain and inside a hook's transaction), afterCreate throwing,
 * stale If-Match (412), restrict (409), racing deletes, purges, successes.
 * The database must hold exactly what the 2xx answers say.
 */

type Op = { readonly kind: string; readonly key: string; readonly run: () => Promise<Answer> }

for (const [size, seed] of [
  [2, 0x5eed],
  [1, 0xbeef],
  [2, 0xcafe],
  [3, 0x1234],
] as const)
  describe.skipIf(POSTGRES_OFF)(`hostile: a storm of mixed writes over a pool of ${size} (seed ${seed})`, () => {
    let hostile: HostileStorage
    let hooks: FastifyInstance
    let soft: FastifyInstance
    let admin: pg.Client
    const logged: Record<string, unknown>[] = []
    const logger = {
      level: 'error',
      stream: { write: (line: string) => void logged.push(JSON.parse(line)) },
    }

    beforeAll(async () => {
      hostile = await openHostileStorage([...hooksTables, ...softTables], { size, timeoutMs: 60_000 })
      hooks = await buildHooksApp(hostile.storage, logger)
      soft = await buildSoftApp(hostile.storage, logger)
      admin = await hostile.admin()
    })
    afterAll(async () => {
      await hooks?.close()
      await soft?.close()
      await hostile?.dispose()
    })

    const H = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object, headers = {}) =>
      call(hooks, { method, url, headers, ...(payload ? { payload } : {}) })
    const S = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object, headers = {}) =>
      call(soft, { method, url, headers, ...(payload ? { payload } : {}) })
    const created = async (answer: Promise<Answer>) => {
      const got = await answer
      expect(got.status, JSON.stringify(got.body)).toBe(201)
      return got.body.data as { id: number } & Record<string, unknown>
    }

    it('every answer matches the database, no stray 500, the pool serves on', async () => {
      const watch = watchProcess()
      try {
        // Seeds, one at a time.
        const labels: { id: number }[] = []
        for (let i = 0; i < 10; i++) labels.push(await created(H('POST', '/v2/labels', { name: `seed-${i}` })))
        const linkOrders: { id: number }[] = []
        for (let i = 0; i < 10; i++) linkOrders.push(await created(H('POST', '/v2/orders', { customer: `link-${i}` })))
        const updOrders: { id: number }[] = []
        for (let i = 0; i < 30; i++) updOrders.push(await created(H('POST', '/v2/orders', { customer: `upd-${i}` })))
        const delOrders: { id: number }[] = []
        for (let i = 0; i < 30; i++) delOrders.push(await created(H('POST', '/v2/orders', { customer: `del-${i}` })))
        const heldPosts: { id: number }[] = []
        for (let i = 0; i < 20; i++) {
          const post = await created(S('POST', '/v1/posts', { title: 'held', slug: `held-${i}` }))
          await created(S('POST', '/v1/reviews', { stars: 3, post_id: post.id }))
          heldPosts.push(post)
        }
        const freePosts: { id: number }[] = []
        for (let i = 0; i < 20; i++)
          freePosts.push(await created(S('POST', '/v1/posts', { title: 'free', slug: `free-${i}` })))
        const tagOf = async (url: string) => {
          const read = await H('GET', url)
          expect(read.status).toBe(200)
          return read.etag!
        }
        const updTags = await Promise.all(updOrders.map((order) => tagOf(`/v2/orders/${order.id}`)))
        const delTags = await Promise.all(delOrders.map((order) => tagOf(`/v2/orders/${order.id}`)))
        const STALE = '"AAAAAAAAAAAAAAAAAAAAAA"'

        const ops: Op[] = []
        for (let k = 0; k < 40; k++)
          for (let copy = 0; copy < 5; copy++)
            ops.push({ kind: 'label-dup', key: `dup-${k}`, run: () => H('POST', '/v2/labels', { name: `dup-${k}` }) })
        for (let i = 0; i < 60; i++)
          ops.push({ kind: 'fail-after', key: `${i}`, run: () => H('POST', '/v2/orders', { customer: 'fail-after' }) })
        for (let i = 0; i < 60; i++)
          ops.push({ kind: 'order-ok', key: `ok-${i}`, run: () => H('POST', '/v2/orders', { customer: `ok-${i}` }) })
        for (let o = 0; o < 10; o++)
          for (let l = 0; l < 3; l++)
            for (let copy = 0; copy < 4; copy++)
              ops.push({
                kind: 'link',
                key: `${linkOrders[o]!.id}:${labels[l]!.id}`,
                run: () => H('POST', `/v2/orders/${linkOrders[o]!.id}/labels`, { label_id: labels[l]!.id }),
              })
        updOrders.forEach((order, i) => {
          ops.push({
            kind: 'patch-stale',
            key: `${order.id}`,
            run: () => H('PATCH', `/v2/orders/${order.id}`, { total: 999 }, { 'if-match': STALE }),
          })
          for (let copy = 0; copy < 3; copy++)
            ops.push({
              kind: 'patch-fresh',
              key: `${order.id}`,
              run: () => H('PATCH', `/v2/orders/${order.id}`, { total: 100 + copy }, { 'if-match': updTags[i]! }),
            })
          ops.push({
            kind: 'put-stale',
            key: `${order.id}`,
            run: () => H('PUT', `/v2/orders/${order.id}`, { customer: 'stolen' }, { 'if-match': STALE }),
          })
        })
        delOrders.forEach((order, i) => {
          ops.push({
            kind: 'delete-stale',
            key: `${order.id}`,
            run: () => H('DELETE', `/v2/orders/${order.id}`, undefined, { 'if-match': STALE }),
          })
          for (let copy = 0; copy < 2; copy++)
            ops.push({
              kind: 'delete-fresh',
              key: `${order.id}`,
              run: () => H('DELETE', `/v2/orders/${order.id}`, undefined, { 'if-match': delTags[i]! }),
            })
        })
        for (const post of heldPosts)
          for (let copy = 0; copy < 2; copy++)
            ops.push({ kind: 'delete-held', key: `${post.id}`, run: () => S('DELETE', `/v1/posts/${post.id}`) })
        for (const post of freePosts)
          for (let copy = 0; copy < 2; copy++)
            ops.push({ kind: 'delete-free', key: `${post.id}`, run: () => S('DELETE', `/v1/posts/${post.id}`) })
        for (let k = 0; k < 20; k++)
          for (let copy = 0; copy < 3; copy++)
            ops.push({
              kind: 'slug-dup',
              key: `slug-${k}`,
              run: () => S('POST', '/v1/posts', { title: 'dup', slug: `slug-${k}` }),
            })
        for (let i = 0; i < 20; i++)
          ops.push({ kind: 'read', key: `${i}`, run: () => H('GET', '/v2/orders?per_page=5') })
        let purged = 0
        for (let i = 0; i < 5; i++)
          ops.push({
            kind: 'purge',
            key: `${i}`,
            run: async () => {
              const result = await hostile.storage.purge(postsTable, new Date(Date.now() + 60_000).toISOString(), 3)
              purged += result.purged
              return { status: 200, type: 'purge', etag: undefined, body: result }
            },
          })

        shuffle(ops, seed)
        const started = Date.now()
        const answers = await Promise.all(
          ops.map(async (op) => ({
            op,
            answer: await op
              .run()
              .catch((error) => ({ status: -1, type: 'thrown', etag: undefined, body: String(error) })),
          })),
        )
        const elapsed = Date.now() - started
        expect(elapsed, 'the storm finished').toBeLessThan(60_000)

        const of = (kind: string) => answers.filter((a) => a.op.kind === kind)
        const statuses = (kind: string) => {
          const counts: Record<number, number> = {}
          for (const { answer } of of(kind)) counts[answer.status] = (counts[answer.status] ?? 0) + 1
          return counts
        }
        const unexpected = answers.filter(({ op, answer }) => {
          if (answer.status >= 500) return !(op.kind === 'fail-after' && answer.body?.code === 'hook_failed')
          return answer.status < 0
        })
        expect(
          unexpected.map(({ op, answer }) => `${op.kind} ${op.key}: ${answer.status} ${JSON.stringify(answer.body)}`),
        ).toEqual([])

        // Unique conflicts, plain: exactly one 201 per name, the rest 409.
        const byKey = (kind: string) => {
          const groups = new Map<string, Answer[]>()
          for (const { op, answer } of of(kind)) groups.set(op.key, [...(groups.get(op.key) ?? []), answer])
          return groups
        }
        for (const [name, group] of byKey('label-dup')) {
          expect(
            group.filter((a) => a.status === 201),
            name,
          ).toHaveLength(1)
          expect(
            group.filter((a) => a.status === 409),
            name,
          ).toHaveLength(4)
        }
        const { rows: dupLabels } = await admin.query(`select id, name from labels where name like 'dup-%'`)
        expect(dupLabels).toHaveLength(40)
        expect(new Set(dupLabels.map((row) => Number(row.id)))).toEqual(
          new Set(
            of('label-dup')
              .filter((a) => a.answer.status === 201)
              .map((a) => a.answer.body.data.id),
          ),
        )

        // afterCreate throwing: 500 hook_failed, neither the order nor its audit row.
        expect(statuses('fail-after')).toEqual({ 500: 60 })
        const { rows: failedOrders } = await admin.query(`select id from orders where customer = 'fail-after'`)
        expect(failedOrders).toEqual([])

        // Successful creates: each order once, with its audit rows (in the transaction, and after the commit).
        expect(statuses('order-ok')).toEqual({ 201: 60 })
        const okIds = of('order-ok').map((a) => a.answer.body.data.id as number)
        const { rows: okRows } = await admin.query(`select id from orders where customer like 'ok-%'`)
        expect(new Set(okRows.map((row) => Number(row.id)))).toEqual(new Set(okIds))

        // Links: a unique conflict inside the hook's transaction answers 409, one 201 per pair.
        for (const [pair, group] of byKey('link')) {
          expect(
            group.filter((a) => a.status === 201),
            pair,
          ).toHaveLength(1)
          expect(
            group.filter((a) => a.status === 409),
            pair,
          ).toHaveLength(3)
        }
        const { rows: links } = await admin.query(`select id from order_labels`)
        expect(new Set(links.map((row) => Number(row.id)))).toEqual(
          new Set(
            of('link')
              .filter((a) => a.answer.status === 201)
              .map((a) => a.answer.body.data.id),
          ),
        )
        const { rows: linkAudits } = await admin.query(`select record_id from audits where action = 'label_linked'`)
        expect(new Set(linkAudits.map((row) => Number(row.record_id)))).toEqual(
          new Set(links.map((row) => Number(row.id))),
        )

        // If-Match: stale always 412 and nothing written; of the fresh ones exactly one 200 per order.
        expect(statuses('patch-stale')).toEqual({ 412: 30 })
        expect(statuses('put-stale')).toEqual({ 412: 30 })
        for (const [id, group] of byKey('patch-fresh')) {
          expect(
            group.filter((a) => a.status === 200),
            id,
          ).toHaveLength(1)
          expect(
            group.filter((a) => a.status === 412),
            id,
          ).toHaveLength(2)
          const winner = group.find((a) => a.status === 200)!
          const { rows } = await admin.query(`select total, customer from orders where id = $1`, [Number(id)])
          expect(Number(rows[0].total), id).toBe(winner.body.data.total)
          expect(rows[0].customer).not.toBe('stolen')
        }
        const { rows: updated } = await admin.query(`select record_id from audits where action = 'order_updated'`)
        expect(updated.map((row) => Number(row.record_id)).sort()).toEqual(updOrders.map((order) => order.id).sort())

        // Deletes with If-Match: one 204 per order, the stale ones 412, the loser 412 or 404.
        expect(statuses('delete-stale')[412] ?? 0).toBe(30 - (statuses('delete-stale')[404] ?? 0))
        for (const [id, group] of byKey('delete-fresh')) {
          expect(
            group.filter((a) => a.status === 204),
            id,
          ).toHaveLength(1)
          expect(
            group.every((a) => [204, 404, 412].includes(a.status)),
            id,
          ).toBe(true)
        }
        const { rows: leftDel } = await admin.query(`select id from orders where customer like 'del-%'`)
        expect(leftDel).toEqual([])
        const { rows: deletedAudits } = await admin.query(`select record_id from audits where action = 'order_deleted'`)
        expect(deletedAudits.map((row) => Number(row.record_id)).sort()).toEqual(
          delOrders.map((order) => order.id).sort(),
        )

        // Restrict: held posts stay live, 409 each time.
        expect(statuses('delete-held')).toEqual({ 409: 40 })
        const { rows: held } = await admin.query(`select id from posts where slug like 'held-%' and deleted_at is null`)
        expect(held).toHaveLength(20)
        // Free posts: one 204 each, then gone (soft-deleted, perhaps purged).
        for (const [id, group] of byKey('delete-free')) {
          expect(
            group.filter((a) => a.status === 204),
            id,
          ).toHaveLength(1)
          expect(
            group.filter((a) => a.status === 404),
            id,
          ).toHaveLength(1)
        }
        const { rows: free } = await admin.query(`select id from posts where slug like 'free-%' and deleted_at is null`)
        expect(free).toEqual([])
        for (const [slug, group] of byKey('slug-dup')) {
          expect(
            group.filter((a) => a.status === 201),
            slug,
          ).toHaveLength(1)
          expect(
            group.filter((a) => a.status === 409),
            slug,
          ).toHaveLength(2)
        }
        expect(statuses('read')).toEqual({ 200: 20 })
        expect(statuses('purge')).toEqual({ 200: 5 })

        // Logged errors: the hook failures, nothing about prepared statements.
        const messages = logged.map((entry) => JSON.stringify(entry))
        expect(messages.filter((line) => /prepared statement|does not exist|already exists/.test(line))).toEqual([])
        expect(logged.filter((entry) => entry.hook !== 'orders.afterCreate')).toEqual([])

        // The pool: never more than two backends, and it still serves.
        const backends = await backendsOf(admin, hostile.application)
        expect(backends.length).toBeLessThanOrEqual(size)
        expect((await H('POST', '/v2/labels', { name: 'after-storm' })).status).toBe(201)
        expect((await S('POST', '/v1/posts', { title: 'after', slug: 'after-storm' })).status).toBe(201)
        expect(watch.caught).toEqual([])
        void purged
      } finally {
        watch.stop()
      }
    }, 120_000)
  })
