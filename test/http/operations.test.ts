import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildApiServer, defineApp, problem, ServerConfigurationError } from '../../runtime/index.js'
import { api, type Api } from '../fixtures/operations-api/generated/server.js'
import { allTables, ordersTable } from '../fixtures/operations-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 16, section 3: custom operations declared in the manifest, over HTTP
 * on both databases. test/fixtures/operations-api declares
 * `POST /v{1,2}/orders/{order_id}/cancellations` (owner or orders:admin; v1
 * names orders' `status` `state`) and the collection_only
 * `GET /v{1,2}/reports/sales-by-month?year=` (3 requests a minute per client).
 */
const SECRET = 'operations-test-secret-of-at-least-32-bytes'
const now = () => Math.floor(Date.now() / 1000)
const token = (claims: Record<string, unknown>) =>
  signJwt(
    { iss: 'https://auth.example.test/', aud: 'operations-api', iat: now(), exp: now() + 300, ...claims },
    { alg: 'HS256', secret: SECRET },
  )
const as = (sub: string, scope = '') => ({ authorization: `Bearer ${token({ sub, scope })}` })

/** How the cancellation handler behaves in the next request. */
let behaviour: 'cancel' | 'refuse' | 'crash' | 'wrong-record' = 'cancel'
/** What the handlers saw, for the assertions. */
const seen: { version?: string; subject?: string | null; scopes?: string[]; query?: unknown } = {}

const SALES = [
  { month: '2026-01', total: 120.5 },
  { month: '2026-02', total: 80 },
]

function buildApp(storage: TestStorage) {
  return defineApp<Api>({
    operations: {
      'orders.cancellations.create': async ({ params, body, caller, version }) => {
        Object.assign(seen, { version, subject: caller.subject, scopes: [...caller.scopes] })
        if (behaviour === 'refuse') {
          throw problem(409, 'order_shipped', 'A shipped order cannot be cancelled.', {
            pointers: { '/reason': 'comes too late' },
          })
        }
        if (behaviour === 'crash') throw new Error('secret internals')
        if (behaviour === 'wrong-record') return { id: 999_999 } as never
        const row = await storage.storage.update(ordersTable, params.order_id, {
          status: 'cancelled',
          cancel_reason: body.reason,
        })
        return row as unknown as Api['orders']['record']
      },
      'reports.sales-by-month.list': async ({ query }) => {
        seen.query = query
        return query.year === 2099 ? ([{ month: 1 }] as never) : SALES
      },
    },
  })
}

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
      app = await buildApiServer(api, {
        storage: storage.storage,
        docs: false,
        redisUrl: '',
        env: { OPERATIONS_TEST_JWT_SECRET: SECRET },
        app: buildApp(storage),
      })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })
    beforeEach(() => {
      behaviour = 'cancel'
    })

    describe('POST /v2/orders/{order_id}/cancellations', () => {
      it("cancels the owner's order: 201 with the order as v2 names it, the handler given the caller and version", async () => {
        const id = await placeOrder('alice')
        const response = await send('POST', `/v2/orders/${id}/cancellations`, as('alice'), {
          reason: 'changed my mind',
        })
        expect(response.statusCode, response.body).toBe(201)
        expect(response.json().data).toMatchObject({
          id,
          status: 'cancelled',
          cancel_reason: 'changed my mind',
          owner_sub: 'alice',
        })
        expect(seen).toMatchObject({ version: 'v2', subject: 'alice', scopes: [] })
      })

      it('answers through v1 in v1 names (the handler is written against the newest version)', async () => {
        const id = await placeOrder('alice')
        const response = await send('POST', `/v1/orders/${id}/cancellations`, as('alice'), { reason: 'late' })
        expect(response.statusCode, response.body).toBe(201)
        const data = response.json().data
        expect(data).toMatchObject({ id, state: 'cancelled', cancel_reason: 'late' })
        expect(data).not.toHaveProperty('status')
        expect(seen.version).toBe('v1')
      })

      it('lets orders:admin cancel anyone’s order', async () => {
        const id = await placeOrder('alice')
        const response = await send('POST', `/v2/orders/${id}/cancellations`, as('root', 'orders:admin'), {
          reason: 'fraud',
        })
        expect(response.statusCode, response.body).toBe(201)
        expect(seen).toMatchObject({ subject: 'root', scopes: ['orders:admin'] })
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
        behaviour = 'refuse'
        const id = await placeOrder('alice')
        const response = await send('POST', `/v2/orders/${id}/cancellations`, as('alice'), { reason: 'x' })
        expectProblem(response, 409, 'order_shipped')
        expect(response.json().errors).toEqual([{ in: 'body', pointer: '/reason', detail: 'comes too late' }])
      })

      it('500 operation_failed, without the error, when the handler throws or returns no such record', async () => {
        const id = await placeOrder('alice')
        behaviour = 'crash'
        const crashed = await send('POST', `/v2/orders/${id}/cancellations`, as('alice'), { reason: 'x' })
        expectProblem(crashed, 500, 'operation_failed')
        expect(crashed.body).not.toContain('secret internals')
        behaviour = 'wrong-record'
        expectProblem(
          await send('POST', `/v2/orders/${id}/cancellations`, as('alice'), { reason: 'x' }),
          500,
          'operation_failed',
        )
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
        const response = await send('GET', '/v2/reports/sales-by-month?year=2026')
        expect(response.statusCode, response.body).toBe(200)
        expect(response.json()).toEqual({ data: SALES })
        expect(seen.query).toEqual({ year: 2026 })
        expect((await send('GET', '/v1/reports/sales-by-month?year=2026')).json()).toEqual({ data: SALES })
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
    buildApiServer(api, { storage: storage.storage, docs: false, redisUrl: '', app: { operations } as never })

  it('refuses to start without a handler for a declared operation, naming the key to export', async () => {
    const started = start({ 'reports.sales-by-month.list': async () => SALES })
    await expect(started).rejects.toThrow(ServerConfigurationError)
    await expect(started).rejects.toThrow(
      `operation "cancellations" of resource "orders" has no handler: export operations['orders.cancellations.create']`,
    )
  })

  it('refuses to start with a handler no operation declares', async () => {
    const started = start({
      'orders.cancellations.create': async () => ({}),
      'reports.sales-by-month.list': async () => SALES,
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
