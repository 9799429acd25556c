import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Random bodies and query strings against the shop API (test/fixtures/shop-api), on every database:
 * whatever arrives, the answer is never a 5xx, and every error is an
 * application/problem+json document whose `status` is the response status.
 * Bounded and seeded, so a failure replays exactly.
 */
const SEED = 20261124
const RUNS = 2000

const PATHS = [
  '/v1/posts',
  '/v1/authors',
  '/v1/orders',
  '/v1/items',
  '/v1/categories',
  '/v1/posts/1',
  '/v1/authors/1',
  '/v1/orders/1/items',
  '/v1/items/1/adjustments',
  '/v1/orders/1/items/1',
  '/v1/posts/999999',
  '/v1/authors/%ff',
  `/v1/authors/${'1'.repeat(200)}`,
  '/v1/authors/1/',
  '/v1/nowhere',
  '/docs/../v1/authors',
]

/** Names a client might send, known or not, prototype names and bracket shapes included. */
const PARAMETER_NAMES = [
  'page',
  'per_page',
  'cursor',
  'sort',
  'include',
  'status',
  'price',
  'title',
  'author_id',
  'id',
  'name',
  'filter[price][gte]',
  'filter[price][lte]',
  'filter[price][eq]',
  'filter[status][in]',
  'filter[status][ne]',
  'filter[title][contains]',
  'filter[title][starts_with]',
  'filter[published_at][null]',
  'filter[published_at][gte]',
  'filter[author_id][in]',
  'filter[id][gt]',
  'filter[price]',
  'filter',
  'filter[]',
  'filter[price][gte][x]',
  'filter[__proto__][x]',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'sort[]',
  'include[0]',
  'filter[a][b][c][d][e]',
  'page[]',
  '',
  '%',
  '%zz',
  'per_page%5B%5D',
]

const VALUE_PIECES = [
  '',
  '0',
  '1',
  '-1',
  '2',
  '20',
  '100',
  '101',
  '1e3',
  '0x10',
  '01',
  '9007199254740993',
  '1000000000',
  'NaN',
  'true',
  'false',
  'null',
  'draft',
  'published',
  'nope',
  'author',
  'category',
  'comments',
  'items.product',
  '-price',
  'title',
  '-created_at',
  'price,title',
  ',',
  ',,',
  'a,b',
  '%00',
  '%ff',
  '%E9cole',
  '%C3%89COLE',
  '%ED%A0%80',
  '2026-01-01',
  '2026-13-45',
  '2026-01-01T00:00:00Z',
  '\u00e9',
  '%25',
  '_',
  '..',
  '.',
  '[',
  ']',
  'eyJhIjoxfQ',
  'W1siW1wiLS1cIl0iLFtudWxsLDFdXSxudWxsXQ.AAAA',
  'x'.repeat(300),
]

const queryValue = fc.oneof(
  fc.constantFrom(...VALUE_PIECES),
  fc.array(fc.constantFrom(...VALUE_PIECES), { maxLength: 3 }).map((pieces) => pieces.join(',')),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
)

const queryString = fc
  .array(fc.tuple(fc.constantFrom(...PARAMETER_NAMES), queryValue), { maxLength: 6 })
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'))

const FIELD_NAMES = [
  'title',
  'body',
  'price',
  'status',
  'name',
  'email',
  'quantity',
  'note',
  'author_id',
  'category_id',
  'published_at',
  'placed_on',
  'in_stock',
  'id',
  'created_at',
  'order_id',
  'product_id',
  '__proto__',
  'constructor',
]

const fieldValue = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1,
    1.5,
    1e308,
    -0,
    2 ** 53,
    'draft',
    'published',
    'x',
    '',
    '\u0000',
    '\ud800',
    '2026-01-01',
    '2026-01-01T00:00:00Z',
    'not-an-email',
    'a@b.co',
  ),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
)

const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), fieldValue, { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '{', '{"title":', 'null', '[]', '{"__proto__":{"x":1}}', '{"title":"a","title":"b"}'),
)

const CONTENT_TYPES = [
  'application/json',
  'application/merge-patch+json',
  'text/plain',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  '',
]

const queryRequest = fc.record({
  method: fc.constantFrom<InjectOptions['method']>(
    'GET',
    'GET',
    'GET',
    'HEAD',
    'DELETE',
    'OPTIONS',
    'TRACE',
    'PROPFIND',
    'LOCK',
  ),
  path: fc.constantFrom(...PATHS),
  query: queryString,
})

const bodyRequest = fc.record({
  method: fc.constantFrom('POST' as const, 'PUT' as const, 'PATCH' as const),
  path: fc.constantFrom(...PATHS),
  query: fc.constantFrom('', 'x=1', 'include=author'),
  payload: body,
  contentType: fc.constantFrom(...CONTENT_TYPES),
})

type FuzzedRequest = {
  method: InjectOptions['method']
  path: string
  query: string
  payload?: string
  contentType?: string
}

/** Sends one request and checks the answer; fails with the request in the message. */
async function expectNoServerError(app: FastifyInstance, generated: FuzzedRequest): Promise<void> {
  const options: InjectOptions = {
    method: generated.method,
    url: generated.query === '' ? generated.path : `${generated.path}?${generated.query}`,
  }
  if (generated.payload !== undefined) {
    options.payload = generated.payload
    if (generated.contentType) options.headers = { 'content-type': generated.contentType }
  }
  const response = await app.inject(options)
  const where = `${options.method} ${options.url} ${generated.payload ?? ''}`
  expect(response.statusCode, where).toBeLessThan(500)
  if (response.statusCode < 400 || generated.method === 'HEAD') return
  expect(response.headers['content-type'], where).toMatch(/^application\/problem\+json/)
  const problem = JSON.parse(response.body)
  expect(problem.status, where).toBe(response.statusCode)
  expect(typeof problem.type, where).toBe('string')
  expect(typeof problem.title, where).toBe('string')
  expect(typeof problem.code, where).toBe('string')
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: fuzzed requests`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildServer({ storage: storage.storage, docs: false, seed: true })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    it(`answers ${RUNS} random query strings without a 5xx, every error a problem`, async () => {
      await fc.assert(
        fc.asyncProperty(queryRequest, (generated) => expectNoServerError(app, generated)),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
    })

    it(`answers ${RUNS} random bodies without a 5xx, every error a problem`, async () => {
      await fc.assert(
        fc.asyncProperty(bodyRequest, (generated) => expectNoServerError(app, generated)),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
    })
  })
}
