import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildApiServer, ServerConfigurationError } from '../../runtime/index.js'
import { api, buildServer } from '../fixtures/operations-api/generated/server.js'
import { allTables, ordersTable } from '../fixtures/operations-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 16, section 3: custom operations declared in the manifest, over HTTP
 * on both databases. test/fixtures/operations-api declares
 * `POST /v{1,2}/orders/{order_id}/cancellations` (owner or orders:admin; v1
 * names orders' `status` `state`) and the collection_only
 * `GET /v{1,2}/reports/sales-by-month?year=` (3 requests a minute per client);
 * its app module (src/app.ts) picks each handler's behaviour from the input.
 */
const SECRET = 'operations-test-secret-of-at-least-32-bytes'
const now = () => Math.floor(Date.now() / 1000)
const token = (claims: Record<string, unknown>) =>
  signJwt(
    { iss: 'https://auth.example.test/', aud: 'operations-api', iat: now(), exp: now() + 300, ...claims },
    { alg: 'HS256', secret: SECRET },
  )
const as = (sub: string, scope = '') => ({ authorization: `Bearer ${token({ sub, scope })}` })

for (const dialect of DIALECTS) {
  describe(`${dialect}: custom operations`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let client = 0
    /** Each request from a client of its own (X-Forwarded-For), so rate limits count only where a test means them to. */
    const send = (
      method: 'GET' | 'POST' | 'PUT' | 'OPTIONS',
      url: string,
      headers: Record<string, string> = {},
      payload?: unknown,
    ) =>
      app.inject({
        method,
        url,
        headers: { 'x-forwarded-for': `10.0.${Math.floor(client / 250)}.${(client++ % 250) + 1}`, ...headers },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      })
    const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
      expect(response.statusCode, response.body).toBe(status)
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(response.json().code).toBe(code)
    }
    const placeOrder = async (sub: string): Promise<number> => {
      const row = await storage.storage.insert(ordersTable, { status: 'paid', cancel_reason: null, owner_sub: sub })
      return row.id as number
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildServer({
        storage: storage.storage,
        docs: false,
        redisUrl: '',
        env: { OPERATIONS_TEST_JWT_SECRET: SECRET },
      })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    describe('POST /v2/orders/{order_id}/cancellations', () => {
      it("cancels the owner's order through db: 201 with the order as v2 names it; the handler knows caller and version", async () => {
        const id = await placeOrder('alice')
        const response = await send('POST', `/v2/orders/${id}/cancellations`, as('alice'), {
          reason: 'changed my mind',
        })
        expect(response.statusCode, response.body).toBe(201)
        expect(response.json().data).toMatchObject({
          id,
          status: 'cancelled',
          cancel_reason: 'changed my mind (alice via v2, no scopes)',
          reason_length: 'changed my mind (alice via v2, no scopes)'.length,
          owner_sub: 'alice',
        })
        expect((await storage.storage.find(ordersTable, id))?.status).toBe('cancelled')
      })

      it('answers through v1 in v1 names (the handler is written against the newest version)', async () => {
        const id = await placeOrder('alice')
        const response = await send('POST', `/v1/orders/${id}/cancellations`, as('alice'), { reason: 'late' })
        expect(response.statusCode, response.body).toBe(201)
        const data = response.json().data
        expect(data).toMatchObject({ id, state: 'cancelled', cancel_reason: 'late (alice via v1, no scopes)' })
        expect(data).not.toHaveProperty('status')
      })

      it('lets orders:admin cancel anyone’s order', async () => {
        const id = await placeOrder('alice')
        const response = await send('POST', `/v2/orders/${id}/cancellations`, as('root', 'orders:admin'), {
          reason: 'fraud',
        })
        expect(response.statusCode, response.body).toBe(201)
        expect(response.json().data.cancel_reason).toBe('fraud (root via v2, orders:admin)')
      })

      it('401 without credentials, with the challenge', async () => {
        const id = await placeOrder('alice')
        const response = await send('POST', `/v2/orders/${id}/cancellations`, {}, { reason: 'x' })
        expectProblem(response, 401, 'unauthenticated')
        expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="api"/)
      })

      it('403 for credentials no alternative admits (no owner claim, no scope), naming the scope', async () => {
        const id = await placeOrder('alice')
        const headers = { authorization: `Bearer ${token({ scope: '' })}` }
        const response = await send('POST', `/v2/orders/${id}/cancellations`, headers, { reason: 'x' })
        expectProblem(response, 403, 'forbidden')
        expect(response.json().detail).toContain('orders:admin')
      })

      it("404 for an order that does not exist, and for another's order the caller may not read", async () => {
        expectProblem(
          await send('POST', '/v2/orders/424242/cancellations', as('alice'), { reason: 'x' }),
          404,
          'not_found',
        )
        const id = await placeOrder('alice')
        const response = await send('POST', `/v2/orders/${id}/cancellations`, as('bob'), { reason: 'x' })
        expectProblem(response, 404, 'not_found')
        expect(response.json().detail).toBe(`No order with id ${id}.`)
        expect((await storage.storage.find(ordersTable, id))?.status).toBe('paid')
      })

      it('400 for a body that does not validate, each problem at its pointer; the handler never runs', async () => {
        const id = await placeOrder('alice')
        const url = `/v2/orders/${id}/cancellations`
        const missing = await send('POST', url, as('alice'), {})
        expectProblem(missing, 400, 'validation_failed')
        expect(missing.json().errors).toEqual([{ in: 'body', pointer: '/reason', detail: 'is required' }])
        const wrong = await send('POST', url, as('alice'), { reason: 'x'.repeat(501), refund: true })
        expectProblem(wrong, 400, 'validation_failed')
        expect(wrong.json().errors).toEqual(
          expect.arrayContaining([
            { in: 'body', pointer: '/reason', detail: 'must be at most 500 characters long' },
            { in: 'body', pointer: '/refund', detail: 'is not a field of orders.cancellations; allowed: reason' },
          ]),
        )
        expectProblem(await send('POST', url, as('alice'), [1]), 400, 'validation_failed')
        expectProblem(
          await send('POST', '/v2/orders/abc/cancellations', as('alice'), { reason: 'x' }),
          400,
          'validation_failed',
        )
        expectProblem(await send('POST', `${url}?force=1`, as('alice'), { reason: 'x' }), 400, 'validation_failed')
        expect((await storage.storage.find(ordersTable, id))?.status).toBe('paid')
      })

      it("answers the handler's problem(...) as problem+json with its status, code and pointers", async () => {
        const id = await placeOrder('alice')
        const response = await send('POST', `/v2/orders/${id}/cancellations`, as('alice'), { reason: 'too late' })
        expectProblem(response, 409, 'order_shipped')
        expect(response.json().errors).toEqual([{ in: 'body', pointer: '/reason', detail: 'comes too late' }])
      })

      it('500 operation_failed, without the error, when the handler throws or returns no such record', async () => {
        const id = await placeOrder('alice')
        const crashed = await send('POST', `/v2/orders/${id}/cancellations`, as('alice'), { reason: 'crash' })
        expectProblem(crashed, 500, 'operation_failed')
        expect(crashed.body).not.toContain('secret internals')
        const wrong = await send('POST', `/v2/orders/${id}/cancellations`, as('alice'), { reason: 'wrong record' })
        expectProblem(wrong, 500, 'operation_failed')
      })

      it('405 for a method the path does not take; OPTIONS lists the ones it does', async () => {
        const id = await placeOrder('alice')
        const put = await send('PUT', `/v2/orders/${id}/cancellations`, as('alice'), { reason: 'x' })
        expectProblem(put, 405, 'method_not_allowed')
        const options = await send('OPTIONS', `/v2/orders/${id}/cancellations`)
        expect([options.statusCode, options.headers.allow]).toEqual([204, 'POST, OPTIONS'])
      })
    })

    describe('GET /v2/reports/sales-by-month (collection_only)', () => {
      it('answers the handler’s rows, the query read as its types, to anyone', async () => {
        const paid = (
          await storage.storage.list(ordersTable, { rowFilter: { status: 'paid' }, limit: 100, count: 'none' })
        ).rows
        const response = await send('GET', '/v2/reports/sales-by-month?year=2026')
        expect(response.statusCode, response.body).toBe(200)
        expect(response.json()).toEqual({ data: [{ month: '2026-01', total: paid.length }] })
        expect((await send('GET', '/v1/reports/sales-by-month?year=2026')).json()).toEqual(response.json())
      })

      it('400 naming each query parameter that is missing, malformed, out of range or unknown', async () => {
        const errorsOf = async (query: string) => {
          const response = await send('GET', `/v2/reports/sales-by-month${query}`)
          expectProblem(response, 400, 'validation_failed')
          return response.json().errors
        }
        expect(await errorsOf('')).toEqual([{ in: 'query', name: 'year', detail: 'is required' }])
        expect(await errorsOf('?year=20x6')).toEqual([{ in: 'query', name: 'year', detail: 'must be an integer' }])
        expect(await errorsOf('?year=1999')).toEqual([{ in: 'query', name: 'year', detail: 'must be >= 2000' }])
        expect(await errorsOf('?year=2026&year=2027')).toEqual([
          { in: 'query', name: 'year', detail: 'takes a single value, given once, without brackets' },
        ])
        expect(await errorsOf('?year=2026&month=1')).toEqual([
          { in: 'query', name: 'month', detail: 'is not a query parameter of this operation; allowed: year' },
        ])
      })

      it('500 operation_failed when the handler answers another shape than declared', async () => {
        expectProblem(await send('GET', '/v2/reports/sales-by-month?year=2099'), 500, 'operation_failed')
      })

      it('is rate-limited by its resource’s own rate: the 4th request in a minute is a 429 problem', async () => {
        const headers = { 'x-forwarded-for': '10.9.9.9' }
        const answers: LightMyRequestResponse[] = []
        for (let index = 0; index < 4; index++) {
          answers.push(await app.inject({ url: '/v2/reports/sales-by-month?year=2026', headers }))
        }
        expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429])
        expect(answers[0]!.headers['ratelimit-policy']).toBe('"reports";q=3;w=60')
        expectProblem(answers[3]!, 429, 'too_many_requests')
        expect(answers[3]!.headers['retry-after']).toBeDefined()
      })
    })
  })
}

describe('an app module that disagrees with the declared operations', () => {
  let storage: TestStorage
  beforeAll(async () => {
    storage = await openTestStorage('sqlite', allTables)
  })
  afterAll(() => storage.dispose())
  const start = (operations: Record<string, unknown>) =>
    buildApiServer(api, {
      storage: storage.storage,
      docs: false,
      redisUrl: '',
      app: { operations, compute: { orders: async () => [] } } as never,
    })

  it('refuses to start without a handler for a declared operation, naming the key to export', async () => {
    const started = start({ 'reports.sales-by-month.list': async () => [] })
    await expect(started).rejects.toThrow(ServerConfigurationError)
    await expect(started).rejects.toThrow(
      `operation "cancellations" of resource "orders" has no handler: export operations['orders.cancellations.create']`,
    )
  })

  it('refuses a server.ts of an earlier restmint (computed fields without types), asking to regenerate', async () => {
    const earlier = { ...api, computed: { orders: ['reason_length'] } }
    const started = buildApiServer(earlier as never, {
      storage: storage.storage,
      docs: false,
      redisUrl: '',
      app: { operations: {}, compute: { orders: async () => [] } } as never,
    })
    await expect(started).rejects.toThrow(ServerConfigurationError)
    await expect(started).rejects.toThrow('run restmint generate, then start again')
  })

  it('refuses to start with a handler no operation declares', async () => {
    const started = start({
      'orders.cancellations.create': async () => ({}),
      'reports.sales-by-month.list': async () => [],
      'orders.refunds.create': async () => ({}),
    })
    await expect(started).rejects.toThrow(
      "the app module exports operations['orders.refunds.create'], which the manifest does not declare",
    )
  })
})

describe('OpenAPI entries of custom operations', () => {
  const document = JSON.parse(
    readFileSync(join(import.meta.dirname, '../fixtures/operations-api/generated/v2/openapi.json'), 'utf8'),
  )

  it('documents the cancellation with its body, record response, security and problem responses', () => {
    const operation = document.paths['/v2/orders/{order_id}/cancellations'].post
    expect(operation.operationId).toBe('ordersCancellationsCreate')
    expect(operation.security).toEqual([{ user: [] }, { user: ['orders:admin'] }])
    expect(operation.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: { reason: { type: 'string', maxLength: 500 } },
      required: ['reason'],
      additionalProperties: false,
    })
    expect(operation.responses['201'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/Order',
    })
    expect(Object.keys(operation.responses)).toEqual(['201', '400', '401', '403', '404', '413', '415', '429'])
    expect(operation.responses['201'].headers).toHaveProperty('RateLimit')
  })

  it('documents the report with its query parameter, array response and public security', () => {
    const operation = document.paths['/v2/reports/sales-by-month'].get
    expect(operation.security).toEqual([])
    expect(operation.parameters).toEqual([
      {
        name: 'year',
        in: 'query',
        description: 'Query parameter `year`.',
        required: true,
        schema: { type: 'integer', minimum: 2000, maximum: 2100 },
      },
    ])
    expect(operation.responses['200'].content['application/json'].schema.properties.data.type).toBe('array')
    expect(Object.keys(operation.responses)).toEqual(['200', '400', '401', '429'])
    expect(document.tags.map((tag: { name: string }) => tag.name)).toContain('reports')
  })
})
