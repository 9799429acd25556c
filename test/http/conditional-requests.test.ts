/**
 * Conditional requests (issue 10, "Conditional requests"; RFC 9110 §13):
 * ETags of the stored row, 304 for a matching If-None-Match, 412 for a
 * failing If-Match checked atomically with the write, 428 where the manifest
 * requires If-Match, on every database.
 */
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entityTagOf } from '../../runtime/api/entity-tag.js'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { ordersTable, productsTable } from '../fixtures/shop-api/generated/schema.js'
import { buildServer as buildServingServer } from '../fixtures/serving-api/generated/server.js'
import { allTables as servingTables } from '../fixtures/serving-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

const STRONG_TAG = /^"[A-Za-z0-9_-]{22}"$/

for (const dialect of DIALECTS) {
  describe(`${dialect}: conditional requests`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildServer({ storage: storage.storage, docs: false })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    const call = (options: InjectOptions) => app.inject(options)
    const createProduct = async (title: string) => {
      const response = await call({ method: 'POST', url: '/v1/products', payload: { title, price: 1 } })
      expect(response.statusCode, response.body).toBe(201)
      return { id: response.json().data.id as number, tag: response.headers.etag as string, data: response.json().data }
    }

    it('tags every single-record response with the strong ETag of the stored row, whatever include embeds', async () => {
      const created = await createProduct('Tagged')
      expect(created.tag).toMatch(STRONG_TAG)
      expect(created.tag).toBe(entityTagOf(productsTable, created.data))
      const url = `/v1/products/${created.id}`
      const read = await call({ url })
      const head = await call({ method: 'HEAD', url })
      expect([read.headers.etag, head.headers.etag]).toEqual([created.tag, created.tag])
      const patched = await call({ method: 'PATCH', url, payload: { title: 'Retitled' } })
      expect(patched.headers.etag).toMatch(STRONG_TAG)
      expect(patched.headers.etag).not.toBe(created.tag)
      const replaced = await call({ method: 'PUT', url, payload: { title: 'Replaced', price: 2 } })
      expect(replaced.headers.etag).toBe(entityTagOf(productsTable, replaced.json().data))
      // Lists carry none: a page is not one record.
      expect((await call({ url: '/v1/products' })).headers.etag).toBeUndefined()
      // The tag is the stored row's: embedding relations does not change it.
      const order = await call({ method: 'POST', url: '/v1/orders', payload: {} })
      const orderUrl = `/v1/orders/${order.json().data.id}`
      await call({ method: 'POST', url: `${orderUrl}/items`, payload: { quantity: 1 } })
      const included = await call({ url: `${orderUrl}?include=items` })
      expect(included.json().data.items).toHaveLength(1)
      expect(included.headers.etag).toBe(order.headers.etag)
      expect(included.headers.etag).toBe(entityTagOf(ordersTable, order.json().data))
    })

    it('answers 304 to GET and HEAD when If-None-Match matches (weakly, in a list, or *), 200 otherwise', async () => {
      const { id, tag } = await createProduct('Cached')
      const url = `/v1/products/${id}`
      for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
        for (const method of ['GET', 'HEAD'] as const) {
          const response = await call({ method, url, headers: { 'if-none-match': ifNoneMatch } })
          expect([response.statusCode, response.headers.etag, response.body]).toEqual([304, tag, ''])
          expect(response.headers['cache-control']).toBe('no-cache')
          expect(response.headers.vary).toBe('Accept')
        }
      }
      const stale = await call({ url, headers: { 'if-none-match': '"stale"' } })
      expect([stale.statusCode, stale.json().data.id]).toEqual([200, id])
    })

    it('never answers 304 to a read with include, whose embedded rows change without changing the tag', async () => {
      const order = await call({ method: 'POST', url: '/v1/orders', payload: {} })
      const url = `/v1/orders/${order.json().data.id}`
      const cached = await call({ url: `${url}?include=items` })
      await call({ method: 'POST', url: `${url}/items`, payload: { quantity: 2 } })
      const headers = { 'if-none-match': cached.headers.etag as string }
      const revalidated = await call({ url: `${url}?include=items`, headers })
      expect(revalidated.statusCode).toBe(200)
      expect(revalidated.json().data.items).toHaveLength(1)
      expect(revalidated.headers.etag).toBe(cached.headers.etag)
      expect((await call({ url, headers })).statusCode).toBe(304)
    })

    it('writes only when If-Match matches strongly; 412 carries the current ETag and writes nothing', async () => {
      const { id, tag } = await createProduct('Guarded')
      const url = `/v1/products/${id}`
      for (const [method, payload] of [
        ['PATCH', { title: 'Lost' }],
        ['PATCH', {}],
        ['PUT', { title: 'Lost', price: 9 }],
        ['DELETE', undefined],
      ] as const) {
        for (const ifMatch of ['"stale"', `W/${tag}`]) {
          const refused = await call({ method, url, payload, headers: { 'if-match': ifMatch } })
          expect(refused.statusCode, `${method} If-Match: ${ifMatch}`).toBe(412)
          expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
          expect(refused.headers.etag).toBe(tag)
          expect(refused.json()).toMatchObject({ status: 412, code: 'precondition_failed' })
        }
      }
      expect((await call({ url })).json().data.title).toBe('Guarded')
      const patched = await call({ method: 'PATCH', url, payload: { title: 'Won' }, headers: { 'if-match': tag } })
      expect([patched.statusCode, patched.json().data.title]).toEqual([200, 'Won'])
      const old = await call({ method: 'PUT', url, payload: { title: 'Late', price: 3 }, headers: { 'if-match': tag } })
      expect([old.statusCode, old.headers.etag]).toEqual([412, patched.headers.etag])
      const star = await call({ method: 'PATCH', url, payload: { title: 'Any' }, headers: { 'if-match': '*' } })
      expect(star.statusCode).toBe(200)
      const listed = `"x", ${star.headers.etag as string}`
      expect((await call({ method: 'DELETE', url, headers: { 'if-match': listed } })).statusCode).toBe(204)
      expect((await call({ method: 'DELETE', url, headers: { 'if-match': '*' } })).statusCode).toBe(404)
    })

    it('refuses a write with 412 when If-None-Match matches the row (* always), and writes nothing', async () => {
      const { id, tag } = await createProduct('Kept')
      const url = `/v1/products/${id}`
      for (const [method, payload] of [
        ['PATCH', { title: 'Lost' }],
        ['PUT', { title: 'Lost', price: 9 }],
        ['DELETE', undefined],
      ] as const) {
        for (const ifNoneMatch of ['*', tag, `W/${tag}`]) {
          const refused = await call({ method, url, payload, headers: { 'if-none-match': ifNoneMatch } })
          expect(refused.statusCode, `${method} If-None-Match: ${ifNoneMatch}`).toBe(412)
          expect(refused.headers.etag).toBe(tag)
        }
      }
      expect((await call({ url })).json().data.title).toBe('Kept')
      const other = { 'if-none-match': '"other"' }
      expect((await call({ method: 'PATCH', url, payload: { title: 'Changed' }, headers: other })).statusCode).toBe(200)
    })

    it('answers 400 naming the header when If-Match or If-None-Match is not a list of entity tags', async () => {
      const { id } = await createProduct('Malformed')
      const url = `/v1/products/${id}`
      for (const [header, value] of [
        ['if-match', 'abc'],
        ['if-match', '"a", b'],
        ['if-none-match', 'W/abc'],
        ['if-match', ','],
      ] as const) {
        const method = header === 'if-match' ? 'PATCH' : 'GET'
        const response = await call({ method, url, payload: { title: 'x' }, headers: { [header]: value } })
        expect(response.statusCode, `${header}: ${value}`).toBe(400)
        expect(response.json()).toMatchObject({
          code: 'bad_request',
          detail: expect.stringMatching(header === 'if-match' ? /^The If-Match header / : /^The If-None-Match header /),
        })
      }
      expect((await call({ url })).json().data.title).toBe('Malformed')
    })

    it('lets exactly one of 50 concurrent PATCHes with the same If-Match through; 49 get 412, none is lost', async () => {
      const { id, tag } = await createProduct('Contended')
      const url = `/v1/products/${id}`
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          call({ method: 'PATCH', url, payload: { title: `writer ${index}` }, headers: { 'if-match': tag } }),
        ),
      )
      const statuses = responses.map((response) => response.statusCode)
      expect(statuses.filter((status) => status === 200)).toHaveLength(1)
      expect(statuses.filter((status) => status === 412)).toHaveLength(49)
      const winner = responses.find((response) => response.statusCode === 200)!
      const stored = await call({ url })
      expect(stored.json().data.title).toBe(winner.json().data.title)
      expect(stored.headers.etag).toBe(winner.headers.etag)
      for (const loser of responses.filter((response) => response.statusCode === 412)) {
        expect(loser.headers.etag).toBe(winner.headers.etag)
      }
    })
  })

  describe(`${dialect}: a resource that requires If-Match`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect, servingTables)
      app = await buildServingServer({ storage: storage.storage, docs: false })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    it('answers 428 to PUT, PATCH and DELETE without If-Match, and writes with it', async () => {
      const created = await app.inject({ method: 'POST', url: '/v1/notes', payload: { title: 'Required' } })
      expect(created.statusCode).toBe(201)
      const url = `/v1/notes/${created.json().data.id}`
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        const response = await app.inject({ method, url, payload: method === 'DELETE' ? undefined : { title: 'x' } })
        expect(response.statusCode, method).toBe(428)
        expect(response.json()).toMatchObject({
          code: 'precondition_required',
          detail: expect.stringContaining('requires the If-Match header'),
        })
      }
      const tag = created.headers.etag as string
      const patched = await app.inject({ method: 'PATCH', url, payload: { title: 'y' }, headers: { 'if-match': tag } })
      expect(patched.statusCode).toBe(200)
      const removed = await app.inject({ method: 'DELETE', url, headers: { 'if-match': '*' } })
      expect(removed.statusCode).toBe(204)
      // Resources without the requirement write without If-Match.
      const tag2 = await app.inject({ method: 'POST', url: '/v1/tags', payload: { name: 'a' } })
      const id = tag2.json().data.id as number
      expect((await app.inject({ method: 'PATCH', url: `/v1/tags/${id}`, payload: { name: 'b' } })).statusCode).toBe(
        200,
      )
    })
  })
}

describe('ETags across databases', () => {
  it('are the same for the same stored values on SQLite and PostgreSQL', async () => {
    const tags = new Set<string>()
    for (const dialect of DIALECTS) {
      const { storage, dispose } = await openTestStorage(dialect)
      try {
        await storage.prepare()
        const product = await storage.insert(productsTable, { title: 'Same ☃', price: 12.5, in_stock: false })
        const order = await storage.insert(ordersTable, { status: 'paid', placed_on: '2026-02-28' })
        // The server sets ids and timestamps, which differ between the two runs; every other value is stored and read back.
        const fixed = { id: 1, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }
        const readProduct = await storage.find(productsTable, product.id as number)
        const readOrder = await storage.find(ordersTable, order.id as number)
        tags.add(
          entityTagOf(productsTable, { ...readProduct!, ...fixed }) +
            entityTagOf(ordersTable, { ...readOrder!, ...fixed }),
        )
      } finally {
        await dispose()
      }
    }
    expect(tags.size).toBe(1)
  })
})
