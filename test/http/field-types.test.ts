/**
 * decimal, json and array fields over HTTP (issue 17, "Types"), on both
 * databases: decimals round-trip exactly and normalised to their scale,
 * filter and sort exactly beyond 2^53; json bodies are checked by their
 * schema and arrays by their items and max_items, as RFC 9457 problems
 * naming the field. test/fixtures/field-types-api is the API.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allTables } from '../fixtures/field-types-api/generated/schema.js'
import { buildServer } from '../fixtures/field-types-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { seedSampleRows } from '../../runtime/storage/seed-sample-rows.js'
import { createBody } from '../fixtures/field-types-api/generated/v1/validators/products-bodies.js'

interface Product {
  id: number
  name: string
  price: string
  discount: string | null
  settings: { pinned: boolean; colour?: string } | null
  labels: string[] | null
}

/** Prices no JS number holds exactly: 2^53 is 9007199254740992, these have 17 integer digits and cents. */
const PRICES = [
  '12345678901234567.89',
  '12345678901234567.9',
  '-12345678901234567.89',
  '9007199254740993.01',
  '0.5',
  '-0.05',
]

for (const dialect of DIALECTS) {
  describe(`${dialect}: decimal, json and array fields`, () => {
    let app: FastifyInstance
    let database: TestStorage
    const ids = new Map<string, number>()

    const create = (payload: object) => app.inject({ method: 'POST', url: '/v1/products', payload })
    const list = async (query: string): Promise<Product[]> => {
      const response = await app.inject(`/v1/products?per_page=100&${query}`)
      expect(response.statusCode, response.body).toBe(200)
      return response.json<{ data: Product[] }>().data
    }
    const names = (products: readonly Product[]) => products.map((product) => product.price)

    beforeAll(async () => {
      database = await openTestStorage(dialect, allTables)
      app = await buildServer({ storage: database.storage, docs: false })
      for (const [index, price] of PRICES.entries()) {
        const response = await create({ name: `product ${index}`, price })
        expect(response.statusCode, response.body).toBe(201)
        ids.set(price, response.json<{ data: Product }>().data.id)
      }
    })

    afterAll(async () => {
      await app?.close()
      await database?.dispose()
    })

    it('round-trips 12345678901234567.89 exactly, as a string', async () => {
      const response = await app.inject(`/v1/products/${ids.get('12345678901234567.89')}`)
      expect(response.json<{ data: Product }>().data.price).toBe('12345678901234567.89')
      // In the raw body too: a JSON string, never a number that JSON.parse would round.
      expect(response.body).toContain('"price":"12345678901234567.89"')
    })

    it('normalises values to the declared scale', async () => {
      expect((await list('sort=price')).map((product) => product.price)).toEqual([
        '-12345678901234567.89',
        '-0.05',
        '0.50',
        '9007199254740993.01',
        '12345678901234567.89',
        '12345678901234567.90',
      ])
      const response = await create({ name: 'discounted', price: '007.5', discount: '.5'.replace('.', '0.') })
      expect(response.statusCode, response.body).toBe(201)
      expect(response.json<{ data: Product }>().data).toMatchObject({ price: '7.50', discount: '0.5000' })
      await app.inject({ method: 'DELETE', url: `/v1/products/${response.json<{ data: Product }>().data.id}` })
    })

    it('filters exactly beyond 2^53', async () => {
      expect(names(await list('filter[price][eq]=12345678901234567.89'))).toEqual(['12345678901234567.89'])
      // 12345678901234567.9 and .89 are the same JS number: only an exact comparison tells them apart.
      expect(names(await list('filter[price][gt]=12345678901234567.89'))).toEqual(['12345678901234567.90'])
      expect(names(await list('filter[price][eq]=12345678901234567.9'))).toEqual(['12345678901234567.90'])
      expect(names(await list('filter[price][lt]=0&sort=price'))).toEqual(['-12345678901234567.89', '-0.05'])
      expect(names(await list('filter[price][gte]=9007199254740993.01&sort=-price'))).toEqual([
        '12345678901234567.90',
        '12345678901234567.89',
        '9007199254740993.01',
      ])
      expect(names(await list('filter[price][in]=0.50,-0.05,1&sort=price'))).toEqual(['-0.05', '0.50'])
      expect(names(await list('filter[price][ne]=0.5&filter[price][lt]=1&sort=price'))).toEqual([
        '-12345678901234567.89',
        '-0.05',
      ])
    })

    it('pages by cursor over decimals in their order', async () => {
      const seen: string[] = []
      let query = ''
      for (;;) {
        const response = await app.inject(`/v1/products?sort=-price&per_page=2${query}`)
        expect(response.statusCode, response.body).toBe(200)
        const page = response.json<{ data: Product[]; meta: { next_cursor: string | null } }>()
        seen.push(...names(page.data))
        if (page.meta.next_cursor === null) break
        query = `&cursor=${encodeURIComponent(page.meta.next_cursor)}`
      }
      expect(seen).toEqual([
        '12345678901234567.90',
        '12345678901234567.89',
        '9007199254740993.01',
        '0.50',
        '-0.05',
        '-12345678901234567.89',
      ])
    })

    it('refuses a decimal that is not a string, or has more digits than declared', async () => {
      for (const price of [12.5, '1e3', '+1.00', '12.345', '123456789012345678.00']) {
        const response = await create({ name: 'bad', price })
        expect(response.statusCode, JSON.stringify(price)).toBe(400)
        expect(response.headers['content-type']).toContain('application/problem+json')
        expect(response.body).toContain('price')
      }
      const filter = await app.inject('/v1/products?filter[price][eq]=1e3')
      expect(filter.statusCode).toBe(400)
      expect(filter.body).toContain('filter[price][eq]')
    })

    it('stores and returns json documents checked by their schema', async () => {
      const response = await create({ name: 'pinned', price: '1', settings: { pinned: true, colour: 'red' } })
      expect(response.statusCode, response.body).toBe(201)
      const { id, settings } = response.json<{ data: Product }>().data
      expect(settings).toEqual({ pinned: true, colour: 'red' })
      const read = await app.inject(`/v1/products/${id}`)
      expect(read.json<{ data: Product }>().data.settings).toEqual({ pinned: true, colour: 'red' })
      expect((await list('filter[settings][null]=false')).map((product) => product.id)).toEqual([id])
      const patched = await app.inject({
        method: 'PATCH',
        url: `/v1/products/${id}`,
        payload: { settings: { pinned: false } },
      })
      expect(patched.json<{ data: Product }>().data.settings).toEqual({ pinned: false })
      await app.inject({ method: 'DELETE', url: `/v1/products/${id}` })
    })

    it('refuses a json body its schema refuses, as a problem naming the field', async () => {
      for (const settings of [{ pinned: 'yes' }, { colour: 'red' }, { pinned: true, size: 3 }, [true]]) {
        const response = await create({ name: 'bad', price: '1', settings })
        expect(response.statusCode, JSON.stringify(settings)).toBe(400)
        expect(response.headers['content-type']).toContain('application/problem+json')
        expect(response.body).toContain('settings')
      }
    })

    it('stores arrays, and refuses more than max_items or a bad item', async () => {
      const response = await create({ name: 'labelled', price: '1', labels: ['a', 'b', 'c'] })
      expect(response.statusCode, response.body).toBe(201)
      const { id, labels } = response.json<{ data: Product }>().data
      expect(labels).toEqual(['a', 'b', 'c'])
      expect((await app.inject(`/v1/products/${id}`)).json<{ data: Product }>().data.labels).toEqual(['a', 'b', 'c'])
      for (const bad of [['a', 'b', 'c', 'd'], [1], ['x'.repeat(31)], 'a']) {
        const refused = await create({ name: 'bad', price: '1', labels: bad })
        expect(refused.statusCode, JSON.stringify(bad)).toBe(400)
        expect(refused.body).toContain('labels')
      }
      await app.inject({ method: 'DELETE', url: `/v1/products/${id}` })
    })

    it('refuses to sort or filter json and array fields', async () => {
      expect((await app.inject('/v1/products?sort=settings')).statusCode).toBe(400)
      expect((await app.inject('/v1/products?filter[labels][null]=true')).statusCode).toBe(400)
      expect((await app.inject('/v1/products?filter[settings][eq]=1')).statusCode).toBe(400)
    })
  })

  describe(`${dialect}: sample rows of decimal, json and array fields`, () => {
    it('seeds values the body validators accept', async () => {
      const database = await openTestStorage(dialect, allTables)
      try {
        await database.storage.prepare()
        expect(await seedSampleRows(database.storage, allTables)).toBe(3)
        const app = await buildServer({ storage: database.storage, docs: false })
        const rows = (await app.inject('/v1/products')).json<{ data: Product[] }>().data
        await app.close()
        expect(rows.map((row) => [row.price, row.discount, row.settings, row.labels])).toEqual([
          ['1.50', '0.5000', { pinned: true }, []],
          ['2.50', '0.5000', { pinned: true }, []],
          ['3.50', '0.5000', { pinned: true }, []],
        ])
        for (const { id: _id, created_at: _c, updated_at: _u, ...row } of rows as unknown as Record<
          string,
          unknown
        >[]) {
          expect(createBody(row), JSON.stringify(createBody.errors)).toBe(true)
        }
      } finally {
        await database.dispose()
      }
    })
  })
}
