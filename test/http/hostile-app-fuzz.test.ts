import type { FastifyInstance, InjectOptions } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer as buildExampleServer } from '../../generated/server.js'
import { allTables as exampleTables } from '../../generated/schema.js'
import { allTables as hooksTables } from '../fixtures/hooks-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import {
  backendsOf,
  buildHooksApp,
  EXAMPLE_JWT_SECRET,
  exampleToken,
  openHostileStorage,
  shuffle,
  watchProcess,
  type HostileStorage,
} from './hostile-pg-support.js'
import type { Storage } from '../../runtime/index.js'

/**
 * Hostile: thousands of malformed requests to the example's custom operations
 * and hooked creates, and to the hooks fixture's hooked create/update/delete
 * through v1 and v2. Nothing may answer 500; every error is problem+json with
 * a detail, and validation problems name what is wrong.
 */
const now = () => Math.floor(Date.now() / 1000)
const jwt = exampleToken
const AUTHS: Record<string, Record<string, string>> = {
  none: {},
  admin: { authorization: `Bearer ${jwt({ sub: 'root', scope: 'orders:admin audits:admin posts:write' })}` },
  owner: { authorization: `Bearer ${jwt({ sub: 'alice', scope: '' })}` },
  stranger: { authorization: `Bearer ${jwt({ sub: 'mallory', scope: 'orders:read' })}` },
  nosub: { authorization: `Bearer ${jwt({ scope: 'orders:admin' })}` },
  expired: {
    authorization: `Bearer ${jwt({ sub: 'root', scope: 'orders:admin', exp: now() - 3600, iat: now() - 7200 })}`,
  },
  wrongAud: { authorization: `Bearer ${jwt({ sub: 'root', scope: 'orders:admin', aud: 'other' })}` },
  wrongSecret: { authorization: `Bearer ${jwt({ sub: 'root', scope: 'orders:admin' }, 'x'.repeat(40))}` },
  garbage: { authorization: 'Bearer not.a.jwt' },
  basic: { authorization: 'Basic YWxpY2U6c2VjcmV0' },
  huge: { authorization: `Bearer ${'a'.repeat(8000)}` },
  empty: { authorization: 'Bearer ' },
  nullByte: { authorization: 'Bearer a\u0001b' },
  scopeArray: { authorization: `Bearer ${jwt({ sub: 'root', scope: ['orders:admin'] })}` },
  subNumber: { authorization: `Bearer ${jwt({ sub: 12, scope: 'orders:admin' })}` },
  subObject: { authorization: `Bearer ${jwt({ sub: { a: 1 }, scope: 'orders:admin' })}` },
}

const IDS = [
  '1',
  '0',
  '-1',
  '1.5',
  'abc',
  '99999999999999999999',
  '2147483648',
  '9007199254740993',
  '%00',
  '%C3%A9',
  '١',
  '+1',
  '1e2',
  '0x1',
  '%201',
  '1%20',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '%F0%9F%92%A9',
  '%FF',
  'x'.repeat(99),
  '007',
]

const BODIES: (unknown | { raw: string })[] = [
  undefined,
  null,
  [],
  [{ reason: 'a' }],
  'string',
  42,
  true,
  {},
  { reason: 1 },
  { reason: null },
  { reason: true },
  { reason: ['a'] },
  { reason: { a: 1 } },
  { reason: '' },
  { reason: 'x'.repeat(500) },
  { reason: 'x'.repeat(501) },
  { reason: 'é'.repeat(500) },
  { reason: '💩'.repeat(300) },
  { reason: 'x'.repeat(200_000) },
  { reason: 'a\u0000b' },
  { reason: '\u0000' },
  { reason: 'ok', extra: 1 },
  { reason: 'ok', id: 5 },
  { reason: 'ok', cancelled_at: '2020-01-01T00:00:00Z' },
  { Reason: 'ok' },
  { raw: '{"reason":"ok","__proto__":{"polluted":1}}' },
  { raw: '{"__proto__":{"reason":"x"}}' },
  { raw: '{"reason":"ok","constructor":{"prototype":{"x":1}}}' },
  { raw: '{"reason":"\\ud800"}' },
  { raw: '{"reason":"ok",}' },
  { raw: '{"reason":"ok"' },
  { raw: '\ufeff{"reason":"ok"}' },
  { raw: '{"reason":"ok","reason":"dup"}' },
  { raw: '' },
  { raw: ' ' },
  { raw: 'null' },
  { raw: '{"reason":1e999}' },
  { raw: '[' + '['.repeat(5000) + ']'.repeat(5000) + ']' },
  { raw: '{"a":'.repeat(3000) + '1' + '}'.repeat(3000) },
]

const ITEM_BODIES: unknown[] = [
  { quantity: 1 },
  { quantity: 0 },
  { quantity: -1 },
  { quantity: 1.5 },
  { quantity: '1' },
  { quantity: 2147483648 },
  { quantity: 9007199254740993 },
  { quantity: 1e308 },
  { quantity: 1, product_id: 999999 },
  { quantity: 1, product_id: -1 },
  { quantity: 1, product_id: 2147483648 },
  { quantity: 1, product_id: 1.5 },
  { quantity: 1, product_id: '1' },
  { quantity: 1, product_id: null },
  { quantity: 1, line_total: -5 },
  { quantity: 1, line_total: 1e308 },
  { quantity: 1, note: 'a\u0000b' },
  { quantity: 1, note: 'x'.repeat(300_000) },
  { quantity: 1, order_id: 2 },
  { quantity: 1, id: 1 },
  { quantity: 1, total: 1 },
  { quantity: 3, product_id: 'BIG' }, // replaced by the expensive product's id
  { quantity: 2147483647, product_id: 'BIG' },
]

const QUERIES = [
  '',
  '?year=2026',
  '?year=abc',
  '?year=2026.5',
  '?year=1999',
  '?year=2101',
  '?year=',
  '?year=2026&year=2027',
  '?year[]=2026',
  '?year[gte]=2000',
  '?year=%00',
  '?year=2026&x=1',
  '?year=99999999999999999999',
  '?year=-0',
  '?year=%2B2026',
  '?year=%202026',
  '?year=0x7EA',
  '?year=2e3',
  '?year=2026&page=2',
  '?YEAR=2026',
  '?year=%ZZ',
  '?year=2026&include=orders',
  '?year=２０２６',
  '?__proto__=1',
  '?year=2026&year',
  '?&&&',
  '?year=' + '9'.repeat(5000),
  '?year=2026&filter[x][eq]=1',
  '?year=Infinity',
  '?year=NaN',
  '?year=true',
]

type Spec = InjectOptions & { label: string }

function withBody(spec: Omit<Spec, 'payload'>, body: unknown): Spec {
  if (body === undefined) return spec as Spec
  if (typeof body === 'object' && body !== null && 'raw' in body) {
    return {
      ...spec,
      payload: (body as { raw: string }).raw,
      headers: { 'content-type': 'application/json', ...spec.headers },
    } as Spec
  }
  return {
    ...spec,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...spec.headers },
  } as Spec
}

async function run(server: FastifyInstance, specs: Spec[], failures: string[]): Promise<Record<number, number>> {
  const histogram: Record<number, number> = {}
  for (let i = 0; i < specs.length; i += 25) {
    await Promise.all(
      specs.slice(i, i + 25).map(async (spec) => {
        const response = await server.inject(spec)
        histogram[response.statusCode] = (histogram[response.statusCode] ?? 0) + 1
        const type = String(response.headers['content-type'] ?? '')
        const where = `${spec.label}: ${spec.method} ${String(spec.url).slice(0, 120)} → ${response.statusCode} ${response.body.slice(0, 300)}`
        if (response.statusCode >= 500) failures.push(`5xx ${where}`)
        if (response.statusCode >= 400) {
          if (!type.startsWith('application/problem+json')) {
            failures.push(`not problem+json ${where}`)
            return
          }
          if (spec.method === 'HEAD') return
          const body = JSON.parse(response.body)
          if (typeof body.detail !== 'string' || body.detail.length < 5) failures.push(`no detail ${where}`)
          if (body.code === 'validation_failed') {
            if (!Array.isArray(body.errors) || body.errors.length === 0) failures.push(`no errors ${where}`)
            else if (
              body.errors.some(
                (e: any) => typeof e.detail !== 'string' || (e.pointer === undefined && e.name === undefined),
              )
            )
              failures.push(`error without pointer/name ${where}`)
          }
        }
      }),
    )
  }
  return histogram
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: malformed requests to the example's operations and hooked creates`, () => {
    let storage: Storage
    let test: TestStorage | undefined
    let hostile: HostileStorage | undefined
    let server: FastifyInstance
    let admin: pg.Client | undefined
    let orderId = 0
    let bigProduct = 0

    beforeAll(async () => {
      if (dialect === 'postgres') {
        hostile = await openHostileStorage(exampleTables, { size: 5 })
        storage = hostile.storage
        admin = await hostile.admin()
      } else {
        test = await openTestStorage(dialect, exampleTables)
        storage = test.storage
      }
      server = await buildExampleServer({ storage, docs: false, env: { JWT_SECRET: EXAMPLE_JWT_SECRET } })
      const owner = AUTHS.owner!
      orderId = (await server.inject({ method: 'POST', url: '/v2/orders', payload: {}, headers: owner })).json().data.id
      bigProduct = (
        await server.inject({
          method: 'POST',
          url: '/v2/products',
          payload: { title: 'Yacht', price: 1e300 },
          headers: AUTHS.admin!,
        })
      ).json().data.id
      await server.inject({
        method: 'POST',
        url: '/v2/products',
        payload: { title: 'Pen', price: 1 },
        headers: AUTHS.admin!,
      })
    })
    afterAll(async () => {
      await server?.close()
      await test?.dispose()
      await hostile?.dispose()
    })

    it('cancellations: ids × auths × bodies (and content types) never 500', async () => {
      const specs: Spec[] = []
      for (const version of ['v1', 'v2']) {
        for (const id of IDS) {
          for (const auth of ['none', 'admin', 'stranger', 'garbage']) {
            specs.push(
              withBody(
                {
                  label: `id ${id} ${auth}`,
                  method: 'POST',
                  url: `/${version}/orders/${id}/cancellations`,
                  headers: AUTHS[auth],
                },
                { reason: 'ok' },
              ),
            )
          }
        }
        for (const auth of Object.keys(AUTHS)) {
          // v1 reads bodies through the same validator as v2: a few of them show its translation holds.
          for (const body of version === 'v2' ? BODIES : BODIES.slice(0, 6)) {
            // Use a fresh target for admin so valid cancellations don't all hit "already cancelled".
            specs.push(
              withBody(
                {
                  label: `body ${auth}`,
                  method: 'POST',
                  url: `/${version}/orders/999999/cancellations`,
                  headers: AUTHS[auth],
                },
                body,
              ),
            )
            specs.push(
              withBody(
                {
                  label: `body ${auth}`,
                  method: 'POST',
                  url: `/${version}/orders/${orderId}/cancellations`,
                  headers: AUTHS[auth],
                },
                body,
              ),
            )
          }
        }
        for (const [type, payload] of [
          ['text/plain', '{"reason":"ok"}'],
          ['application/x-www-form-urlencoded', 'reason=ok'],
          ['application/merge-patch+json', '{"reason":"ok"}'],
          ['application/json; charset=latin1', '{"reason":"ok"}'],
          ['application/json', Buffer.from([0x7b, 0x22, 0x72, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
          ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
        ] as const) {
          specs.push({
            label: `type ${type}`,
            method: 'POST',
            url: `/${version}/orders/${orderId}/cancellations`,
            headers: { ...AUTHS.admin, 'content-type': type },
            payload,
          })
        }
        for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const) {
          specs.push({
            label: `method ${method}`,
            method,
            url: `/${version}/orders/${orderId}/cancellations`,
            headers: AUTHS.admin,
          })
        }
        specs.push({
          label: 'query',
          method: 'POST',
          url: `/${version}/orders/${orderId}/cancellations?reason=x`,
          headers: { ...AUTHS.admin, 'content-type': 'application/json' },
          payload: '{"reason":"q"}',
        })
      }
      const failures: string[] = []
      const watch = watchProcess()
      const histogram = await run(server, shuffle(specs, 7), failures)
      watch.stop()
      expect(watch.caught).toEqual([])
      expect(failures.slice(0, 30), `${specs.length} requests, ${JSON.stringify(histogram)}`).toEqual([])
    }, 120_000)

    it('sales-by-month: queries × auths, GET/HEAD, with bodies, never 500', async () => {
      const specs: Spec[] = []
      for (const version of ['v1', 'v2']) {
        for (const query of QUERIES) {
          for (const auth of ['none', 'admin', 'garbage', 'expired', 'huge']) {
            specs.push({
              label: `q ${auth}`,
              method: 'GET',
              url: `/${version}/reports/sales-by-month${query}`,
              headers: AUTHS[auth],
            })
            specs.push({
              label: `q head ${auth}`,
              method: 'HEAD',
              url: `/${version}/reports/sales-by-month${query}`,
              headers: AUTHS[auth],
            })
          }
        }
        for (const body of BODIES.slice(0, 12)) {
          specs.push(
            withBody(
              { label: 'GET with body', method: 'GET', url: `/${version}/reports/sales-by-month?year=2026` },
              body,
            ),
          )
        }
        for (const path of [
          '/reports',
          '/reports/',
          '/reports/sales-by-month/1',
          '/reports/1',
          '/reports/sales-by-year',
          '/reports/sales-by-month/',
          '/reports//sales-by-month',
        ]) {
          specs.push({ label: 'path', method: 'GET', url: `/${version}${path}?year=2026` })
          specs.push({ label: 'path', method: 'POST', url: `/${version}${path}`, payload: {} })
        }
      }
      const failures: string[] = []
      const histogram = await run(server, specs, failures)
      expect(failures.slice(0, 30), `${specs.length} requests, ${JSON.stringify(histogram)}`).toEqual([])
    }, 120_000)

    it('hooked creates of items (beforeCreate reads the product, afterCreate updates the order): never 500', async () => {
      const specs: Spec[] = []
      const bodies = ITEM_BODIES.map((body) => JSON.parse(JSON.stringify(body).replace('"BIG"', String(bigProduct))))
      for (const version of ['v1', 'v2']) {
        for (const id of IDS.slice(0, 12)) {
          specs.push(
            withBody(
              { label: `items id ${id}`, method: 'POST', url: `/${version}/orders/${id}/items`, headers: AUTHS.admin },
              { quantity: 1 },
            ),
          )
        }
        for (const body of [...bodies, ...BODIES]) {
          specs.push(
            withBody(
              { label: 'items body', method: 'POST', url: `/${version}/orders/${orderId}/items`, headers: AUTHS.admin },
              body,
            ),
          )
          specs.push(
            withBody(
              { label: 'items top body', method: 'POST', url: `/${version}/items`, headers: AUTHS.admin },
              {
                order_id: orderId,
                ...(typeof body === 'object' && body && !Array.isArray(body) && !('raw' in body) ? body : {}),
              },
            ),
          )
        }
      }
      const failures: string[] = []
      const histogram = await run(server, specs, failures)
      expect(failures.slice(0, 30), `${specs.length} requests, ${JSON.stringify(histogram)}`).toEqual([])
      // The order total the hooks keep is a number a client can read back.
      const order = await server.inject({ method: 'GET', url: `/v2/orders/${orderId}`, headers: AUTHS.admin })
      expect(order.statusCode, order.body).toBe(200)
      expect(typeof order.json().data.total, order.body).toBe('number')
    }, 120_000)

    it('afterwards: a plain request answers quickly; on PostgreSQL no session idles in a transaction', async () => {
      const start = Date.now()
      const answer = await server.inject({ method: 'GET', url: '/v2/orders', headers: AUTHS.admin })
      expect(answer.statusCode).toBe(200)
      expect(Date.now() - start).toBeLessThan(1000)
      if (admin && hostile) {
        const states = (await backendsOf(admin, hostile.application)).map((b) => b.state)
        expect(states).not.toContain('idle in transaction')
        expect(states).not.toContain('idle in transaction (aborted)')
      }
    })
  })

  describe(`${dialect}: malformed requests to the hooks fixture's hooked writes (v1 text / v2 content)`, () => {
    let test: TestStorage
    let server: FastifyInstance
    beforeAll(async () => {
      test = await openTestStorage(dialect, hooksTables)
      server = await buildHooksApp(test.storage)
    })
    afterAll(async () => {
      await server?.close()
      await test?.dispose()
    })

    it("orders/notes create/patch/put/delete with junk through v1 and v2: never 500 (only the fixture's deliberate crash-*/fail-* values may)", async () => {
      const ids: number[] = []
      for (let i = 0; i < 5; i++)
        ids.push(
          (await server.inject({ method: 'POST', url: '/v2/orders', payload: { customer: `c${i}` } })).json().data.id,
        )
      const note = (
        await server.inject({ method: 'POST', url: '/v2/notes', payload: { content: 'hello there' } })
      ).json().data.id
      const junk: unknown[] = [
        ...BODIES,
        { customer: 'x'.repeat(101) },
        { customer: '   ' },
        { customer: 'ok', status: 'cancelled' },
        { customer: 'ok', total: -1 },
        { customer: 'ok', total: '1' },
        { customer: 'ok', label: 'lines:1e308x1e308' },
        { customer: 'ok', label: 'lines:-5x3' },
        { customer: 'ok', label: 'lines:abc' },
        { customer: 'ok', label: 'lines:' + '1x1,'.repeat(10000) },
        { customer: 'ok', line_count: 3 },
        { customer: null },
        { customer: 'a\u0000b' },
        { customer: '\ud800' },
        { label: null },
        { status: null },
        { text: 'v1 name', content: 'v2 name' },
        { text: 'forbidden' },
        { content: 'forbidden' },
        { text: null },
        { content: 1 },
        { tag: null },
      ]
      const specs: Spec[] = []
      for (const version of ['v1', 'v2']) {
        for (const body of junk) {
          specs.push(withBody({ label: 'orders POST', method: 'POST', url: `/${version}/orders` }, body))
          specs.push(withBody({ label: 'notes POST', method: 'POST', url: `/${version}/notes` }, body))
          for (const method of ['PATCH', 'PUT'] as const) {
            specs.push(
              withBody({ label: `orders ${method}`, method, url: `/${version}/orders/${ids[specs.length % 5]}` }, body),
            )
            specs.push(withBody({ label: `notes ${method}`, method, url: `/${version}/notes/${note}` }, body))
          }
          specs.push(
            withBody(
              {
                label: 'merge-patch',
                method: 'PATCH',
                url: `/${version}/orders/${ids[0]}`,
                headers: { 'content-type': 'application/merge-patch+json' },
              },
              body,
            ),
          )
        }
        for (const id of IDS) {
          specs.push({ label: 'orders DELETE id', method: 'DELETE', url: `/${version}/orders/${id}` })
          specs.push(
            withBody(
              { label: 'orders PATCH id', method: 'PATCH', url: `/${version}/orders/${id}` },
              { status: 'paid' },
            ),
          )
        }
        specs.push({
          label: 'DELETE with body',
          method: 'DELETE',
          url: `/${version}/orders/${ids[4]}`,
          payload: { x: 1 },
        })
        specs.push({ label: 'DELETE with query', method: 'DELETE', url: `/${version}/orders/${ids[3]}?force=1` })
      }
      const failures: string[] = []
      const histogram = await run(server, specs, failures)
      expect(failures.slice(0, 30), `${specs.length} requests, ${JSON.stringify(histogram)}`).toEqual([])
    }, 120_000)
  })
}
