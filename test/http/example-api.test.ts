import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildServer as buildExampleServer } from '../../generated/server.js'
import { allTables as exampleTables } from '../../generated/schema.js'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/** HTTP behaviour of the generated shop API (test/fixtures/shop-api), on every database. */
for (const dialect of DIALECTS) {
  describe(`${dialect}: generated shop API`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildServer({ storage: storage.storage, docs: false })
    })
    afterAll(async () => {
      // Optional: when beforeAll failed, its error is the one to read.
      await app?.close()
      await storage?.dispose()
    })

    const call = async (options: InjectOptions) => {
      const response = await app.inject(options)
      expect(response.statusCode, `${options.method} ${options.url} must never be a 500`).toBeLessThan(500)
      const type = String(response.headers['content-type'] ?? '')
      const body = response.body && type.includes('json') ? JSON.parse(response.body) : response.body
      return { status: response.statusCode, headers: response.headers, body, type }
    }
    const post = (url: string, payload: unknown) => call({ method: 'POST', url, payload: payload as object })

    it('lists an empty collection with the pagination envelope', async () => {
      const response = await call({ method: 'GET', url: '/v1/categories' })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        data: [],
        meta: { page: 1, per_page: 20, count: 'exact', total: 0, total_pages: 0, next_cursor: null },
        links: {
          self: '/v1/categories?page=1&per_page=20',
          first: '/v1/categories?page=1&per_page=20',
          prev: null,
          next: null,
          last: '/v1/categories?page=1&per_page=20',
        },
      })
    })

    it('creates with 201, Location and the stored record; optional fields read back null', async () => {
      const response = await post('/v1/authors', { name: 'Ada' })
      expect(response.status).toBe(201)
      expect(response.headers.location).toBe(`/v1/authors/${response.body.data.id}`)
      expect(response.body.data).toMatchObject({ name: 'Ada', email: null })
      expect(response.body.data.id).toBeGreaterThan(0)
      expect(response.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
      const read = await call({ method: 'GET', url: response.headers.location as string })
      expect(read.body).toEqual({ data: response.body.data })
    })

    it('applies defaults on create', async () => {
      expect((await post('/v1/products', { title: 'Pen', price: 1.5 })).body.data.in_stock).toBe(true)
      expect((await post('/v1/orders', {})).body.data).toMatchObject({ status: 'pending', placed_on: null })
    })

    it('rejects bad bodies with 400 problems naming each pointer', async () => {
      const response = await post('/v1/items', { quantity: '12', id: 5, colour: 'red' })
      expect(response.status).toBe(400)
      expect(response.type).toContain('application/problem+json')
      expect(response.body).toMatchObject({ status: 400, code: 'validation_failed', title: 'Invalid request' })
      expect(response.body.type).toMatch(/^https:\/\//)
      const pointers = response.body.errors.map((error: { pointer: string }) => error.pointer).sort()
      expect(pointers).toEqual(['/colour', '/id', '/order_id', '/quantity'])
      const byPointer = Object.fromEntries(
        response.body.errors.map((error: { pointer: string; detail: string }) => [error.pointer, error.detail]),
      )
      expect(byPointer['/id']).toMatch(/read-only/)
      expect(byPointer['/colour']).toMatch(/not a field of items/)
      expect(byPointer['/order_id']).toBe('is required')
      expect(byPointer['/quantity']).toBe('must be integer')
    })

    it('rejects enum, format and range violations', async () => {
      const response = await post('/v1/orders', { status: 'lost', placed_on: '2026-13-45' })
      expect(response.status).toBe(400)
      expect(response.body.errors).toEqual(
        expect.arrayContaining([
          { in: 'body', pointer: '/status', detail: 'must be one of "pending", "paid", "shipped"' },
          expect.objectContaining({ in: 'body', pointer: '/placed_on' }),
        ]),
      )
      expect((await post('/v1/authors', { name: 'x', email: 'not-an-email' })).status).toBe(400)
      expect((await post('/v1/products', { title: 'x', price: -1 })).status).toBe(400)
    })

    it('answers 415 for a non-JSON body, 400 for malformed JSON, 413 over the body limit', async () => {
      const text = await call({
        method: 'POST',
        url: '/v1/authors',
        payload: 'name=Ada',
        headers: { 'content-type': 'text/plain' },
      })
      expect(text.status).toBe(415)
      expect(text.body.code).toBe('unsupported_media_type')
      const malformed = await call({
        method: 'POST',
        url: '/v1/authors',
        payload: '{"name":',
        headers: { 'content-type': 'application/json' },
      })
      expect(malformed.status).toBe(400)
      expect(malformed.body.code).toBe('malformed_body')
      const huge = await post('/v1/authors', { name: 'x'.repeat(1_100_000) })
      expect(huge.status).toBe(413)
      expect(huge.body.code).toBe('payload_too_large')
    })

    it('validates path ids and query parameters', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '1e3', '0x10', '01', '%201', '99999999999999999999']) {
        const response = await call({ method: 'GET', url: `/v1/authors/${id}` })
        expect(response.status, id).toBe(400)
        expect(response.body.errors[0]).toMatchObject({ in: 'path', name: 'id' })
      }
      expect((await call({ method: 'GET', url: '/v1/authors/999999' })).status).toBe(404)
      const unknown = await call({ method: 'GET', url: '/v1/authors?colour=red' })
      expect(unknown.status).toBe(400)
      expect(unknown.body.errors).toEqual([
        {
          in: 'query',
          name: 'colour',
          detail:
            'is not a known query parameter; allowed: page, per_page, cursor, count, sort, include, filter, id, name, email, created_at, updated_at',
        },
      ])
      for (const query of ['per_page=101', 'per_page=0', 'page=0', 'page=x', 'page=1e1', 'per_page=0x10']) {
        const response = await call({ method: 'GET', url: `/v1/authors?${query}` })
        expect(response.status, query).toBe(400)
        expect(response.body.errors[0].name).toBe(query.split('=')[0])
      }
      expect((await call({ method: 'GET', url: '/v1/authors/1?x=1' })).status).toBe(400)
      const repeated = await call({ method: 'GET', url: '/v1/authors?page=1&page=2' })
      expect(repeated.body.errors).toEqual([
        { in: 'query', name: 'page', detail: 'is given more than once; give it once' },
      ])
    })

    it('paginates by page and per_page, with a page past the end empty', async () => {
      for (let index = 0; index < 25; index++) await post('/v1/categories', { name: `category ${index}` })
      const page = await call({ method: 'GET', url: '/v1/categories?page=3&per_page=10' })
      expect(page.status).toBe(200)
      expect(page.body.data.map((row: { name: string }) => row.name)).toEqual(
        [20, 21, 22, 23, 24].map((index) => `category ${index}`),
      )
      expect(page.body.meta).toEqual({
        page: 3,
        per_page: 10,
        count: 'exact',
        total: 25,
        total_pages: 3,
        next_cursor: null,
      })
      expect(page.body.links).toMatchObject({
        prev: '/v1/categories?page=2&per_page=10',
        next: null,
        last: '/v1/categories?page=3&per_page=10',
      })
      const past = await call({ method: 'GET', url: '/v1/categories?page=9&per_page=10' })
      expect(past.status).toBe(200)
      expect(past.body.data).toEqual([])
      const ids = page.body.data.map((row: { id: number }) => row.id)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
    })

    it('replaces with PUT: omitted optional fields reset, missing required fields are 400', async () => {
      const category = (await post('/v1/categories', { name: 'Replacements' })).body.data
      const created = (
        await post('/v1/posts', { title: 'Hello', body: 'text', status: 'published', category_id: category.id })
      ).body.data
      const replaced = await call({
        method: 'PUT',
        url: `/v1/posts/${created.id}`,
        payload: { title: 'Hi', category_id: category.id },
      })
      expect(replaced.status).toBe(200)
      expect(replaced.body.data).toMatchObject({
        id: created.id,
        title: 'Hi',
        body: null,
        status: 'draft',
        published_at: null,
      })
      expect(replaced.body.data.created_at).toBe(created.created_at)
      expect((await call({ method: 'PUT', url: `/v1/posts/${created.id}`, payload: { body: 'x' } })).status).toBe(400)
      expect(
        (await call({ method: 'PUT', url: '/v1/posts/999999', payload: { title: 'x', category_id: category.id } }))
          .status,
      ).toBe(404)
    })

    it('patches only the fields present, with application/json and merge-patch; null clears nullables', async () => {
      const order = (await post('/v1/orders', {})).body.data
      const item = (await post(`/v1/orders/${order.id}/items`, { quantity: 2, note: 'gift' })).body.data
      const patched = await call({ method: 'PATCH', url: `/v1/items/${item.id}`, payload: { quantity: 3 } })
      expect(patched.body.data).toMatchObject({ quantity: 3, note: 'gift' })
      const cleared = await call({
        method: 'PATCH',
        url: `/v1/items/${item.id}`,
        payload: JSON.stringify({ note: null }),
        headers: { 'content-type': 'application/merge-patch+json' },
      })
      expect(cleared.status).toBe(200)
      expect(cleared.body.data).toMatchObject({ quantity: 3, note: null })
      const invalid = await call({ method: 'PATCH', url: `/v1/items/${item.id}`, payload: { quantity: null } })
      expect(invalid.status).toBe(400)
      expect(invalid.body.errors[0].pointer).toBe('/quantity')
      const mergeOnPost = await call({
        method: 'POST',
        url: '/v1/orders',
        payload: '{}',
        headers: { 'content-type': 'application/merge-patch+json' },
      })
      expect(mergeOnPost.status).toBe(415)
    })

    it('deletes with 204 and no body; again is 404', async () => {
      const author = (await post('/v1/authors', { name: 'Temp' })).body.data
      const deleted = await call({ method: 'DELETE', url: `/v1/authors/${author.id}` })
      expect(deleted.status).toBe(204)
      expect(deleted.body).toBe('')
      expect((await call({ method: 'DELETE', url: `/v1/authors/${author.id}` })).status).toBe(404)
    })

    it('answers 400, never 500, for values the database cannot hold', async () => {
      const category = (await post('/v1/categories', { name: 'Values' })).body.data
      const leap = await post('/v1/posts', {
        title: 't',
        category_id: category.id,
        published_at: '2016-12-31T23:59:60Z',
      })
      expect(leap.status).toBe(400)
      expect(leap.body.errors[0].pointer).toBe('/published_at')
      const overflow = await post('/v1/posts', {
        title: 't',
        category_id: category.id,
        published_at: '9999-12-31T23:59:59-23:59',
      })
      expect(overflow.status).toBe(400)
      const nul = await post('/v1/authors', { name: 'nul \u0000 inside' })
      expect(nul.status).toBe(400)
      expect(nul.body.errors[0].pointer).toBe('/name')
      const order = (await post('/v1/orders', {})).body.data
      const huge = await post(`/v1/orders/${order.id}/items`, { quantity: 1e20 })
      expect(huge.status).toBe(400)
      expect(huge.body.errors[0].pointer).toBe('/quantity')
    })

    it('answers 409 for a duplicate unique value', async () => {
      await post('/v1/authors', { name: 'A', email: 'dup@example.com' })
      const duplicate = await post('/v1/authors', { name: 'B', email: 'dup@example.com' })
      expect(duplicate.status).toBe(409)
      expect(duplicate.body).toMatchObject({ code: 'unique_violation', errors: [{ in: 'body', pointer: '/email' }] })
    })

    it('scopes nested routes to their parent', async () => {
      const first = (await post('/v1/orders', {})).body.data
      const second = (await post('/v1/orders', {})).body.data
      const created = await post(`/v1/orders/${first.id}/items`, { quantity: 1 })
      expect(created.status).toBe(201)
      expect(created.headers.location).toBe(`/v1/orders/${first.id}/items/${created.body.data.id}`)
      expect(created.body.data.order_id).toBe(first.id)
      const item = created.body.data.id
      expect((await call({ method: 'GET', url: `/v1/orders/${first.id}/items/${item}` })).status).toBe(200)
      expect((await call({ method: 'GET', url: `/v1/orders/${second.id}/items/${item}` })).status).toBe(404)
      expect((await call({ method: 'DELETE', url: `/v1/orders/${second.id}/items/${item}` })).status).toBe(404)
      expect((await post('/v1/orders/999999/items', { quantity: 1 })).status).toBe(404)
      const withKey = await post(`/v1/orders/${first.id}/items`, { quantity: 1, order_id: second.id })
      expect(withKey.status).toBe(400)
      expect(withKey.body.errors[0]).toMatchObject({
        pointer: '/order_id',
        detail: expect.stringMatching(/comes from the path/),
      })
      const listed = await call({ method: 'GET', url: `/v1/orders/${first.id}/items` })
      expect(listed.body.data.map((row: { id: number }) => row.id)).toEqual([item])
      expect((await call({ method: 'GET', url: '/v1/orders/999999/items' })).status).toBe(404)
    })

    it('creates sub-resources at their top-level path with the parent key in the body', async () => {
      const order = (await post('/v1/orders', {})).body.data
      const created = await post('/v1/items', { order_id: order.id, quantity: 4 })
      expect(created.status).toBe(201)
      expect(created.headers.location).toBe(`/v1/items/${created.body.data.id}`)
      const missingParent = await post('/v1/items', { order_id: 999999, quantity: 4 })
      expect(missingParent.status).toBe(400)
      expect(missingParent.body.errors[0].pointer).toBe('/order_id')
      const all = await call({ method: 'GET', url: '/v1/items?per_page=100' })
      expect(all.body.data.some((row: { id: number }) => row.id === created.body.data.id)).toBe(true)
    })

    it('refuses to delete a parent with children (409) unless the child cascades', async () => {
      const order = (await post('/v1/orders', {})).body.data
      const item = (await post(`/v1/orders/${order.id}/items`, { quantity: 1 })).body.data
      const adjustment = (await post(`/v1/items/${item.id}/adjustments`, { reason: 'discount', amount: -1 })).body.data
      const refused = await call({ method: 'DELETE', url: `/v1/orders/${order.id}` })
      expect(refused.status).toBe(409)
      expect(refused.body.code).toBe('still_referenced')
      expect(refused.body.detail).toMatch(/items/)
      expect((await call({ method: 'GET', url: `/v1/items/${item.id}` })).status).toBe(200)
      expect((await call({ method: 'DELETE', url: `/v1/items/${item.id}` })).status).toBe(204)
      expect((await call({ method: 'GET', url: `/v1/adjustments/${adjustment.id}` })).status).toBe(404)
      expect((await call({ method: 'DELETE', url: `/v1/orders/${order.id}` })).status).toBe(204)
    })

    it('answers 405 with Allow for a known path, 404 problem for an unknown one', async () => {
      const collection = await call({ method: 'DELETE', url: '/v1/authors' })
      expect(collection.status).toBe(405)
      expect(collection.headers.allow).toBe('GET, HEAD, POST, OPTIONS')
      expect(collection.body.code).toBe('method_not_allowed')
      const item = await call({ method: 'POST', url: '/v1/authors/1' })
      expect(item.status).toBe(405)
      expect(item.headers.allow).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS')
      const options = await call({ method: 'OPTIONS', url: '/v1/authors' })
      expect(options.status).toBe(204)
      expect(options.headers.allow).toBe('GET, HEAD, POST, OPTIONS')
      for (const method of ['GET', 'POST'] as const) {
        expect((await call({ method, url: '/v1/authors/' })).status, `${method} with a trailing slash`).toBe(404)
      }
      const unknown = await call({ method: 'GET', url: '/v1/widgets' })
      expect(unknown.status).toBe(404)
      expect(unknown.type).toContain('application/problem+json')
    })
  })
}

const EXAMPLE_SECRET = 'example-api-test-secret-of-at-least-32-bytes'
const now = () => Math.floor(Date.now() / 1000)
/** May create posts and see and restore deleted comments. */
const editor = {
  authorization: `Bearer ${signJwt(
    {
      iss: 'https://auth.example.com/',
      aud: 'shop-api',
      sub: 'editor',
      scope: 'posts:write comments:admin',
      iat: now(),
      exp: now() + 300,
    },
    { alg: 'HS256', secret: EXAMPLE_SECRET },
  )}`,
}

/** What the example project (resources.yaml, generated/) adds over the shop API: tags, an aggregate, soft delete. */
for (const dialect of DIALECTS) {
  describe(`${dialect}: the example project's tags, aggregates and soft-deleted comments`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    const ids: { posts: number[]; tags: Record<string, number>; comment: number } = { posts: [], tags: {}, comment: 0 }

    const call = async (options: InjectOptions) => {
      const response = await app.inject(options)
      expect(response.statusCode, `${options.method} ${options.url}: ${response.body}`).toBeLessThan(500)
      return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null }
    }
    const create = async (url: string, payload: object) => {
      const response = await call({ method: 'POST', url, payload, headers: editor })
      expect(response.status, url).toBe(201)
      return response.body.data.id as number
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect, exampleTables)
      app = await buildExampleServer({ storage: storage.storage, docs: false, env: { JWT_SECRET: EXAMPLE_SECRET } })
      const category = await create('/v2/categories', { name: 'Notes' })
      for (const tag of ['news', 'rust', 'sql']) ids.tags[tag] = await create('/v2/tags', { name: tag })
      const posts = [
        { title: 'First', status: 'published', price: 10, tags: ['news', 'rust'] },
        { title: 'Second', status: 'published', price: 30, tags: ['sql'] },
        { title: 'Third', status: 'draft', price: 5, tags: ['news'] },
      ]
      for (const { tags, ...post } of posts) {
        const id = await create('/v2/posts', { ...post, category_id: category })
        for (const tag of tags) await create(`/v2/posts/${id}/tags`, { tag_id: ids.tags[tag] })
        ids.posts.push(id)
      }
      ids.comment = await create('/v2/comments', { body: 'Nice', post_id: ids.posts[0] })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    it('embeds tags with include=tags, in v2 and in v1, and filters posts by a tag name', async () => {
      for (const version of ['v1', 'v2']) {
        const listed = await call({ method: 'GET', url: `/${version}/posts?include=tags&sort=id` })
        expect(listed.status).toBe(200)
        expect(listed.body.data.map((post: { tags: { name: string }[] }) => post.tags.map((tag) => tag.name))).toEqual([
          ['news', 'rust'],
          ['sql'],
          ['news'],
        ])
      }
      const tagged = await call({ method: 'GET', url: '/v2/posts?filter[tags.name][eq]=news&sort=id' })
      expect(tagged.body.data.map((post: { id: number }) => post.id)).toEqual([ids.posts[0], ids.posts[2]])
      expect(tagged.body.meta.total).toBe(2)
      const either = await call({ method: 'GET', url: '/v2/posts?filter[tags.name][in]=rust,sql&sort=id' })
      expect(either.body.data.map((post: { id: number }) => post.id)).toEqual([ids.posts[0], ids.posts[1]])
      const again = await call({
        method: 'POST',
        url: `/v2/posts/${ids.posts[1]}/tags`,
        payload: { tag_id: ids.tags.sql },
      })
      expect(again.status).toBe(409)
    })

    it('groups posts by status with the price aggregates, and keeps list_price a decimal string', async () => {
      const groups = await call({ method: 'GET', url: '/v2/posts/aggregates?group_by=status&aggregate[price]=sum,max' })
      expect(groups.status).toBe(200)
      expect(groups.body.data).toEqual([
        { status: 'draft', count: 1, price: { sum: 5, max: 5 } },
        { status: 'published', count: 2, price: { sum: 40, max: 30 } },
      ])
      const product = await call({
        method: 'POST',
        url: '/v2/products',
        payload: { title: 'Pen', price: 1.5, list_price: '12345678.91' },
      })
      expect(product.body.data.list_price).toBe('12345678.91')
    })

    it('soft-deletes a comment: gone from lists and reads, listed with deleted=only, back after a restoration', async () => {
      expect((await call({ method: 'DELETE', url: `/v2/comments/${ids.comment}` })).status).toBe(204)
      expect((await call({ method: 'GET', url: `/v2/comments/${ids.comment}` })).status).toBe(404)
      expect((await call({ method: 'GET', url: '/v2/comments' })).body.data).toEqual([])
      expect((await call({ method: 'GET', url: '/v2/comments?deleted=only' })).status).toBe(401)
      const deleted = await call({ method: 'GET', url: '/v2/comments?deleted=only', headers: editor })
      expect(deleted.body.data.map((comment: { id: number }) => comment.id)).toEqual([ids.comment])
      const restored = await call({
        method: 'POST',
        url: `/v2/comments/${ids.comment}/restorations`,
        headers: editor,
      })
      expect(restored.status).toBe(200)
      expect((await call({ method: 'GET', url: `/v2/comments/${ids.comment}` })).body.data.deleted_at).toBeNull()
    })
  })
}
