import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import type { Storage } from '../../runtime/storage/storage.js'
import type { Row, TableDefinition } from '../../runtime/contract/table-definition.js'
import { commentsTable, postsTable } from '../fixtures/shop-api/generated/schema.js'
import { DIALECTS, openTestStorage, type Dialect, type TestStorage } from '../support/test-storage.js'

/**
 * Writes racing each other on one row, over HTTP on every database: only the
 * request that actually changed the row may say so. PostgreSQL runs them on
 * a pool of connections under READ COMMITTED, where a row looked up first can
 * be gone by the time the write runs.
 */

const CONCURRENT_REQUESTS = 20

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function openApi(dialect: Dialect, wrap: (storage: Storage) => Storage = (storage) => storage) {
  const storage: TestStorage = await openTestStorage(dialect)
  cleanups.push(() => storage.dispose())
  const app: FastifyInstance = await buildServer({ storage: wrap(storage.storage), docs: false })
  cleanups.push(() => app.close())
  const call = async (options: InjectOptions) => {
    const response = await app.inject(options)
    const body = response.body === '' ? undefined : JSON.parse(response.body)
    return { status: response.statusCode, type: response.headers['content-type'], body }
  }
  const post = async (url: string, payload: object) => (await call({ method: 'POST', url, payload })).body.data as Row
  return { call, post }
}

type Api = Awaited<ReturnType<typeof openApi>>

async function createPost(api: Api): Promise<Row> {
  const category = await api.post('/v1/categories', { name: `category ${Math.random()}` })
  return api.post('/v1/posts', { title: 'Racing', category_id: category.id })
}

/** Counts of each status among `statuses`. */
function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: concurrent writes to one row`, () => {
    it(`answers exactly one of ${CONCURRENT_REQUESTS} concurrent DELETEs with 204, the others 404`, async () => {
      const api = await openApi(dialect)
      for (let round = 0; round < 3; round++) {
        const post = await createPost(api)
        await api.post(`/v1/posts/${post.id}/comments`, { body: 'cascaded' })
        const responses = await Promise.all(
          Array.from({ length: CONCURRENT_REQUESTS }, () =>
            api.call({ method: 'DELETE', url: `/v1/posts/${post.id}` }),
          ),
        )
        expect(tally(responses.map((response) => response.status))).toEqual({ 204: 1, 404: CONCURRENT_REQUESTS - 1 })
        for (const response of responses.filter((response) => response.status === 404)) {
          expect(response.type).toMatch(/^application\/problem\+json/)
          expect(response.body).toMatchObject({ status: 404, code: 'not_found' })
        }
      }
    })

    it('answers a nested DELETE racing its siblings once with 204', async () => {
      const api = await openApi(dialect)
      const post = await createPost(api)
      const comment = await api.post(`/v1/posts/${post.id}/comments`, { body: 'once' })
      const url = `/v1/posts/${post.id}/comments/${comment.id}`
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT_REQUESTS }, () => api.call({ method: 'DELETE', url })),
      )
      expect(tally(responses.map((response) => response.status))).toEqual({ 204: 1, 404: CONCURRENT_REQUESTS - 1 })
    })

    it('answers PUT and PATCH racing a DELETE with 200 only for updates made before it, else 404', async () => {
      const api = await openApi(dialect)
      for (let round = 0; round < 3; round++) {
        const post = await createPost(api)
        const url = `/v1/posts/${post.id}`
        const updates = Array.from({ length: CONCURRENT_REQUESTS }, (_, index) =>
          index % 2 === 0
            ? api.call({ method: 'PATCH', url, payload: { title: `patched ${index}` } })
            : api.call({ method: 'PUT', url, payload: { title: `replaced ${index}`, category_id: post.category_id } }),
        )
        const deletion = api.call({ method: 'DELETE', url })
        const responses = await Promise.all(updates)
        expect((await deletion).status).toBe(204)
        for (const response of responses) {
          expect([200, 404]).toContain(response.status)
          if (response.status === 200) expect(response.body.data).toMatchObject({ id: post.id })
          else expect(response.body).toMatchObject({ status: 404, code: 'not_found' })
        }
        // Whatever the interleaving, the row is gone and no update brought it back.
        expect((await api.call({ method: 'GET', url })).status).toBe(404)
        expect((await api.call({ method: 'PATCH', url, payload: { title: 'late' } })).status).toBe(404)
      }
    })

    it('answers 404 for a nested create whose parent is deleted between the rowFilter check and the insert', async () => {
      let deleteParentFirst: number | undefined
      const api = await openApi(dialect, (storage) =>
        interceptInsert(storage, async (table, values) => {
          // The parent passed the route's existence check; a cascade delete now wins the race.
          if (table === commentsTable && deleteParentFirst !== undefined && values.post_id === deleteParentFirst) {
            expect(await storage.delete(postsTable, deleteParentFirst)).toBe(true)
          }
        }),
      )
      const post = await createPost(api)
      deleteParentFirst = post.id as number
      const response = await api.call({
        method: 'POST',
        url: `/v1/posts/${post.id}/comments`,
        payload: { body: 'too late' },
      })
      expect(response.type).toMatch(/^application\/problem\+json/)
      expect(response.body).toMatchObject({
        status: 404,
        code: 'not_found',
        detail: `No post with id ${post.id}.`,
      })
      expect(response.status).toBe(404)
    })
  })
}

/** The storage, with `before` awaited ahead of every insert. */
function interceptInsert(storage: Storage, before: (table: TableDefinition, values: Row) => Promise<void>): Storage {
  return new Proxy(storage, {
    get(target, key) {
      if (key === 'insert') {
        return async (table: TableDefinition, values: Row) => {
          await before(table, values)
          return target.insert(table, values)
        }
      }
      const value: unknown = Reflect.get(target, key)
      // KyselyStorage keeps its state in private fields, reachable only with itself as `this`.
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
