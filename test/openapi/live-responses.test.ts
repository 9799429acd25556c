import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../fixtures/shop-api/generated/server.js'
import { buildApiServer } from '../../runtime/index.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 6, items 11 and 14: what the server answers is what the committed
 * document says. Real responses of the shop API (test/fixtures/shop-api, with
 * include_items_max lowered to 2, so arrays are cut) are validated against
 * the schema the document gives for their path, method and status, formats
 * included (ajv, JSON Schema 2020-12, the OpenAPI 3.1 dialect).
 */
const document = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/shop-api/generated/v1/openapi.json'), 'utf8'),
)
const DOCUMENT_ID = 'https://restmint.test/openapi.json'

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema({ ...document, $id: DOCUMENT_ID })

/** JSON Pointer segment (RFC 6901). */
const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1')

/** The document's schema of one response body; follows a `#/components/responses/…` reference. */
function responseSchemaRef(path: string, method: string, status: number): string {
  const response = document.paths[path]?.[method]?.responses?.[String(status)]
  if (!response) throw new Error(`the document has no ${status} for ${method.toUpperCase()} ${path}`)
  if (response.$ref) {
    const name = (response.$ref as string).replace('#/components/responses/', '')
    return `${DOCUMENT_ID}#/components/responses/${escape(name)}/content/${escape('application/problem+json')}/schema`
  }
  return `${DOCUMENT_ID}#/paths/${escape(path)}/${method}/responses/${status}/content/${escape('application/json')}/schema`
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: live responses match the shop API document`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    const ids: Record<string, number> = {}

    /** Sends the request and validates the answer against `template`'s operation; returns the body. */
    const call = async (template: string, options: InjectOptions, status: number) => {
      const response = await app.inject(options)
      expect(response.statusCode, `${options.method} ${options.url}: ${response.body}`).toBe(status)
      const method = String(options.method).toLowerCase()
      const declared = document.paths[template]?.[method]?.responses?.[String(status)]
      expect(declared, `${status} is declared for ${method} ${template}`).toBeDefined()
      if (status === 204) {
        expect(response.body).toBe('')
        return undefined
      }
      expect(response.headers['content-type']).toMatch(
        status < 400 ? /^application\/json/ : /^application\/problem\+json/,
      )
      const body = response.json()
      const validate = ajv.getSchema(responseSchemaRef(template, method, status))!
      expect(validate(body) ? [] : validate.errors, `${options.method} ${options.url}`).toEqual([])
      return body
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildApiServer(
        { ...api, limits: { ...api.limits, includeItemsMax: 2 } },
        { storage: storage.storage, docs: false },
      )
      const create = async (template: string, url: string, payload: object) =>
        (await call(template, { method: 'POST', url, payload }, 201)).data.id as number
      ids.category = await create('/v1/categories', '/v1/categories', { name: 'News' })
      ids.author = await create('/v1/authors', '/v1/authors', { name: 'Ada', email: 'ada@example.com' })
      for (const title of ['one', 'two', 'three']) {
        ids.post = await create('/v1/posts', '/v1/posts', {
          title,
          category_id: ids.category,
          author_id: ids.author,
          price: 5,
        })
      }
      for (const body of ['a', 'b', 'c']) {
        await create('/v1/posts/{post_id}/comments', `/v1/posts/${ids.post}/comments`, {
          body,
          author_email: 'x@example.com',
        })
      }
      ids.product = await create('/v1/products', '/v1/products', { title: 'Pen', price: 2 })
      ids.order = await create('/v1/orders', '/v1/orders', {})
      for (const quantity of [1, 2, 3]) {
        await create('/v1/orders/{order_id}/items', `/v1/orders/${ids.order}/items`, {
          quantity,
          product_id: ids.product,
        })
      }
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    it('lists with filters, sort and cut includes: the page envelope with meta.truncated', async () => {
      const page = await call(
        '/v1/posts',
        { method: 'GET', url: '/v1/posts?include=author,category,comments&filter%5Bprice%5D%5Bgte%5D=1&sort=-price' },
        200,
      )
      expect(page.meta.truncated).toHaveLength(1)
      // The check has teeth: a body that is not the envelope, or an array over maxItems, fails it.
      const validatePage = ajv.getSchema(responseSchemaRef('/v1/posts', 'get', 200))!
      expect(validatePage({ data: [] })).toBe(false)
      const tooMany = Array.from({ length: api.limits.includeItemsMax + 1 }, () => page.data[0].comments[0])
      expect(validatePage({ ...page, data: [{ ...page.data[0], comments: tooMany }] })).toBe(false)
      expect(validatePage({ ...page, links: { ...page.links, self: '/v1/posts?filter[x]=1' } })).toBe(false) // formats too
      const authors = await call('/v1/authors', { method: 'GET', url: '/v1/authors?include=posts' }, 200)
      expect(authors.meta.truncated[0].next).toBe(`/v1/posts?author_id=${ids.author}&page=2&per_page=2`)
      const next = await call('/v1/posts', { method: 'GET', url: authors.meta.truncated[0].next }, 200)
      expect(next.data).toHaveLength(1)
    })

    it('walks cursor pages, whose links keep the filters', async () => {
      let url = '/v1/posts?per_page=2&filter%5Bprice%5D%5Bgte%5D=1&include=comments'
      const first = await call('/v1/posts', { method: 'GET', url }, 200)
      url = `${url}&cursor=${first.meta.next_cursor}`
      const second = await call('/v1/posts', { method: 'GET', url }, 200)
      expect(second.meta).toMatchObject({ next_cursor: null, truncated: [{ pointer: '/data/0/comments' }] })
    })

    it('reads, replaces and updates one record, with and without cut includes', async () => {
      const post = await call(
        '/v1/posts/{id}',
        { method: 'GET', url: `/v1/posts/${ids.post}?include=comments,author` },
        200,
      )
      expect(post.meta.truncated[0].next).toBe(`/v1/posts/${ids.post}/comments?page=2&per_page=2`)
      await call('/v1/posts/{post_id}/comments', { method: 'GET', url: post.meta.truncated[0].next }, 200)
      await call('/v1/orders/{id}', { method: 'GET', url: `/v1/orders/${ids.order}?include=items.product` }, 200)
      await call(
        '/v1/orders/{order_id}/items',
        { method: 'GET', url: `/v1/orders/${ids.order}/items?include=product` },
        200,
      )
      await call('/v1/products/{id}', { method: 'GET', url: `/v1/products/${ids.product}` }, 200)
      await call(
        '/v1/products/{id}',
        { method: 'PUT', url: `/v1/products/${ids.product}`, payload: { title: 'Pencil', price: 1 } },
        200,
      )
      await call(
        '/v1/products/{id}',
        { method: 'PATCH', url: `/v1/products/${ids.product}`, payload: { in_stock: false } },
        200,
      )
    })

    it('answers problems the document declares', async () => {
      await call('/v1/posts/{id}', { method: 'GET', url: '/v1/posts/999999' }, 404)
      await call('/v1/posts', { method: 'GET', url: '/v1/posts?sort=nope' }, 400)
      await call('/v1/posts', { method: 'GET', url: '/v1/posts?cursor=forged' }, 400)
      await call(
        '/v1/authors',
        { method: 'POST', url: '/v1/authors', payload: { name: 'Ada', email: 'ada@example.com' } },
        409,
      )
      await call('/v1/authors', { method: 'POST', url: '/v1/authors', payload: { name: 7 } }, 400)
      await call('/v1/orders/{id}', { method: 'DELETE', url: `/v1/orders/${ids.order}` }, 409)
      await call(
        '/v1/categories',
        { method: 'POST', url: '/v1/categories', payload: 'x', headers: { 'content-type': 'text/plain' } },
        415,
      )
      const comment = await call(
        '/v1/posts/{post_id}/comments',
        { method: 'GET', url: `/v1/posts/${ids.post}/comments?per_page=1` },
        200,
      )
      await call('/v1/comments/{id}', { method: 'DELETE', url: `/v1/comments/${comment.data[0].id}` }, 204)
    })
  })
}
