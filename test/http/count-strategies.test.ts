/**
 * How a collection counts (issue 19, "Count strategies"): `count=exact`,
 * `estimated` and `none` on page and cursor requests, the manifest's default,
 * and pages that lead on without a count, on the generated shop API
 * (test/fixtures/shop-api, whose adjustments declare `count: none`).
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStorage, type Storage } from '../../runtime/index.js'
import { allTables } from '../fixtures/shop-api/generated/schema.js'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { DIALECTS, POSTGRES_URL, type Dialect } from '../support/test-storage.js'

const AUTHORS = 25

/** The shop API's OpenAPI document, as generated and served. */
const openapi = JSON.parse(
  readFileSync(new URL('../fixtures/shop-api/generated/v1/openapi.json', import.meta.url), 'utf8'),
) as {
  paths: Record<string, { get: { parameters: { $ref: string }[] } }>
  components: {
    parameters: Record<string, { name: string; description: string; schema: unknown }>
    schemas: Record<
      string,
      { required: string[]; properties: Record<string, { description: string; enum?: string[] }> }
    >
  }
}

interface Page {
  data: { id: number }[]
  meta: Record<string, unknown>
  links: Record<string, string | null>
}

/** The shop API over a fresh database; on PostgreSQL also a client on its schema, to ANALYZE it. */
async function openShop(dialect: Dialect) {
  if (dialect === 'sqlite') {
    const storage = createStorage('sqlite::memory:', allTables)
    return { storage, analyze: async () => {}, dispose: () => storage.close() }
  }
  const schema = `restmint_test_${randomBytes(6).toString('hex')}`
  const storage: Storage = createStorage(POSTGRES_URL, allTables, { schema })
  const client = new pg.Client(POSTGRES_URL)
  await client.connect()
  return {
    storage,
    analyze: async () => void (await client.query(`ANALYZE "${schema}".authors`)),
    dispose: async () => {
      await storage.close()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await client.end()
    },
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: count strategies`, () => {
    let app: FastifyInstance
    let shop: Awaited<ReturnType<typeof openShop>>
    const authors: number[] = []

    const get = async (url: string): Promise<Page> => {
      const response = await app.inject(url)
      expect(response.statusCode, response.body).toBe(200)
      return response.json<Page>()
    }
    const create = async (url: string, payload: object): Promise<number> => {
      const response = await app.inject({ method: 'POST', url, payload })
      expect(response.statusCode, response.body).toBe(201)
      return response.json<{ data: { id: number } }>().data.id
    }
    const pageUrl = (query: string) => `/v1/authors?per_page=10&${query}`

    beforeAll(async () => {
      shop = await openShop(dialect)
      app = await buildServer({ storage: shop.storage, docs: false })
      for (let index = 0; index < AUTHORS; index++) authors.push(await create('/v1/authors', { name: `a${index}` }))
      await shop.analyze()
    })
    afterAll(async () => {
      await app?.close()
      await shop?.dispose()
    })

    it('counts exactly by default: total, total_pages and a last link', async () => {
      const page = await get(pageUrl('page=2'))
      expect(page.data.map((row) => row.id)).toEqual(authors.slice(10, 20))
      expect(page.meta).toEqual({
        page: 2,
        per_page: 10,
        count: 'exact',
        total: AUTHORS,
        total_pages: 3,
        next_cursor: expect.any(String),
      })
      expect(page.links).toMatchObject({
        prev: '/v1/authors?per_page=10&page=1',
        next: '/v1/authors?per_page=10&page=3',
        last: '/v1/authors?per_page=10&page=3',
      })
      const asked = await get(pageUrl('page=2&count=exact'))
      expect([asked.data, asked.meta]).toEqual([page.data, page.meta])
    })

    it('with count=none counts nothing: no total, no last link, next while a next page exists', async () => {
      const page = await get(pageUrl('page=2&count=none'))
      expect(page.data.map((row) => row.id)).toEqual(authors.slice(10, 20))
      expect(page.meta).toEqual({ page: 2, per_page: 10, count: 'none', next_cursor: expect.any(String) })
      expect(page.links).toEqual({
        self: '/v1/authors?per_page=10&page=2&count=none',
        first: '/v1/authors?per_page=10&page=1&count=none',
        prev: '/v1/authors?per_page=10&page=1&count=none',
        next: '/v1/authors?per_page=10&page=3&count=none',
        last: null,
      })
      const lastPage = await get(pageUrl('page=3&count=none'))
      expect(lastPage.meta).toEqual({ page: 3, per_page: 10, count: 'none', next_cursor: null })
      expect(lastPage.links.next).toBeNull()
      const pastTheEnd = await get(pageUrl('page=9&count=none'))
      expect([pastTheEnd.data, pastTheEnd.links.next, pastTheEnd.links.prev]).toEqual([
        [],
        null,
        '/v1/authors?per_page=10&page=8&count=none',
      ])
    })

    it('walks every page to the end with count=none, following next', async () => {
      const seen: number[] = []
      let url: string | null = '/v1/authors?per_page=7&count=none'
      let pages = 0
      while (url !== null) {
        const page: Page = await get(url)
        expect(page.meta.count).toBe('none')
        expect(page.meta).not.toHaveProperty('total')
        seen.push(...page.data.map((row) => row.id))
        url = page.links.next ?? null
        pages++
      }
      expect(seen).toEqual(authors)
      expect(pages).toBe(Math.ceil(AUTHORS / 7))
    })

    it('with count=estimated gives the database estimate, or an exact count where it costs nothing', async () => {
      const page = await get(pageUrl('page=1&count=estimated'))
      expect(page.links.next).toBe('/v1/authors?per_page=10&page=2&count=estimated')
      if (dialect === 'sqlite') {
        // SQLite keeps no row estimates for a filtered query: it counts, and says so.
        expect(page.meta).toMatchObject({ count: 'exact', total: AUTHORS, total_pages: 3 })
        expect(page.links.last).toBe('/v1/authors?per_page=10&page=3&count=estimated')
      } else {
        expect(page.links.last).toBeNull()
        // The planner's estimate from ANALYZE: right for the whole table, never below the rows seen.
        expect(page.meta).toEqual({
          page: 1,
          per_page: 10,
          count: 'estimated',
          total: AUTHORS,
          next_cursor: expect.any(String),
        })
        const filtered = await get(pageUrl(`count=estimated&filter[name][gte]=a2`))
        expect(filtered.meta).toMatchObject({ count: 'estimated', total: expect.any(Number) })
        expect(filtered.meta.total).toBeGreaterThanOrEqual(11)
      }
      // The last page is short: what it holds and skipped is the total, counted for nothing.
      const lastPage = await get(pageUrl('page=3&count=estimated'))
      expect(lastPage.meta).toMatchObject({ count: 'exact', total: AUTHORS, total_pages: 3 })
    })

    it.runIf(dialect === 'postgres')('takes the estimate from the planner, not from counting', async () => {
      const added: number[] = []
      for (let index = 0; index < 3; index++) added.push(await create('/v1/authors', { name: `late${index}` }))
      try {
        // Not analyzed since: the planner still reckons on the table as ANALYZE saw it.
        expect((await get(pageUrl('count=estimated'))).meta.total).toBe(AUTHORS)
        expect((await get(pageUrl('count=exact'))).meta.total).toBe(AUTHORS + added.length)
      } finally {
        for (const id of added)
          expect((await app.inject({ method: 'DELETE', url: `/v1/authors/${id}` })).statusCode).toBe(204)
      }
    })

    it('counts cursor pages only when asked, and never gives them total_pages', async () => {
      const first = await get(pageUrl(''))
      const cursor = first.meta.next_cursor as string
      const byCursor = await get(pageUrl(`cursor=${cursor}`))
      expect(byCursor.data.map((row) => row.id)).toEqual(authors.slice(10, 20))
      expect(byCursor.meta).toEqual({ per_page: 10, count: 'none', next_cursor: expect.any(String) })
      const counted = await get(pageUrl(`cursor=${cursor}&count=exact`))
      expect(counted.meta).toEqual({
        per_page: 10,
        count: 'exact',
        total: AUTHORS,
        next_cursor: byCursor.meta.next_cursor,
      })
      expect(counted.links).toMatchObject({ prev: null, last: null, next: expect.stringContaining('count=exact') })
      const estimated = await get(pageUrl(`cursor=${cursor}&count=estimated`))
      expect(estimated.meta).toMatchObject({
        count: dialect === 'sqlite' ? 'exact' : 'estimated',
        total: AUTHORS,
      })
      expect(estimated.meta).not.toHaveProperty('total_pages')
      expect((await get(pageUrl(`cursor=${cursor}&count=none`))).meta).toEqual(byCursor.meta)
    })

    it("takes the resource's count from the manifest: adjustments count nothing unless asked", async () => {
      const order = await create('/v1/orders', {})
      const item = await create(`/v1/orders/${order}/items`, { quantity: 1 })
      for (const reason of ['a', 'b', 'c']) await create(`/v1/items/${item}/adjustments`, { reason, amount: 1 })
      const url = `/v1/items/${item}/adjustments?per_page=2`
      expect((await get(url)).meta).toEqual({ page: 1, per_page: 2, count: 'none', next_cursor: expect.any(String) })
      expect((await get(`${url}&count=exact`)).meta).toMatchObject({ count: 'exact', total: 3, total_pages: 2 })
    })

    it('refuses a count it does not know, naming the parameter and the choices', async () => {
      const response = await app.inject(pageUrl('count=planned'))
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({
        errors: [{ in: 'query', name: 'count', detail: 'must be one of exact, estimated, none' }],
      })
    })
  })
}

describe('the OpenAPI document on counting', () => {
  const countParameter = (path: string) =>
    openapi.paths[path]!.get.parameters.map(({ $ref }) => openapi.components.parameters[$ref.split('/').pop()!]!).find(
      (parameter) => parameter.name === 'count',
    )!

  it('documents count= on every collection, with its choices and the default of each', () => {
    const authors = countParameter('/v1/authors')
    expect(authors.schema).toEqual({ type: 'string', enum: ['exact', 'estimated', 'none'] })
    expect(authors.description).toMatch(/Default: `exact` on page requests, `none` on cursor requests\.$/)
    expect(countParameter('/v1/items/{item_id}/adjustments').description).toMatch(/Default: `none`\.$/)
  })

  it('says in PageMeta which fields each count returns', () => {
    const meta = openapi.components.schemas.PageMeta!
    expect(meta.required).toContain('count')
    expect(meta.properties.count!.enum).toEqual(['exact', 'estimated', 'none'])
    expect(meta.properties.total!.description).toMatch(/Omitted when `count` is `none`/)
    expect(meta.properties.total_pages!.description).toMatch(/Only when `count` is `exact`/)
    expect(openapi.components.schemas.PageLinks!.properties.last!.description).toMatch(/without an exact count/)
  })
})
