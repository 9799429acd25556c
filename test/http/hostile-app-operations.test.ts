import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildServer as buildExampleServer } from '../../generated/server.js'
import { allTables as exampleTables } from '../../generated/schema.js'
import { AppProblemError, buildApiServer, defineApp, problem } from '../../runtime/index.js'
import { api as opsApi, appModule as opsModule } from '../fixtures/operations-api/generated/server.js'
import { allTables as opsTables, ordersTable } from '../fixtures/operations-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { call, EXAMPLE_JWT_SECRET, exampleBearer } from './hostile-pg-support.js'

const OPS_SECRET = 'operations-test-secret-of-at-least-32-bytes'
const now = () => Math.floor(Date.now() / 1000)
const exampleAdmin = exampleBearer('root', 'orders:admin audits:admin')
const opsAdmin = {
  authorization: `Bearer ${signJwt(
    {
      iss: 'https://auth.example.test/',
      aud: 'operations-api',
      sub: 'root',
      scope: 'orders:admin',
      iat: now(),
      exp: now() + 600,
    },
    { alg: 'HS256', secret: OPS_SECRET },
  )}`,
  'x-forwarded-for': '10.9.9.9',
}

/** Handlers that misbehave, picked by the cancellation's reason / the report's year. */
const app = defineApp({
  ...opsModule,
  operations: {
    ...opsModule.operations,
    'orders.cancellations.create': async (context: any) => {
      const { body, db, params } = context
      if (body.reason === 'problem-200') throw new AppProblemError(200, 'fine', 'all fine', {})
      if (body.reason === 'problem-bad') throw problem(200, 'x', 'y')
      if (body.reason === 'throw-undefined') throw undefined
      if (body.reason === 'string-id') return { id: String(params.order_id) }
      if (body.reason === 'write-then-problem') {
        await db.orders.update(params.order_id, { status: 'cancelled', cancel_reason: 'half' })
        throw problem(409, 'refused', 'Refused after writing.')
      }
      return opsModule.operations!['orders.cancellations.create']!(context)
    },
  },
} as any)

for (const dialect of DIALECTS) {
  describe(`${dialect}: custom operations that misbehave (operations-api fixture)`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    beforeAll(async () => {
      storage = await openTestStorage(dialect, opsTables)
      server = await buildApiServer(opsApi, {
        storage: storage.storage,
        docs: false,
        app,
        redisUrl: '',
        env: { OPERATIONS_TEST_JWT_SECRET: OPS_SECRET },
        logger: false,
      } as any)
    })
    afterAll(async () => {
      await server?.close()
      await storage?.dispose()
    })
    const place = async () =>
      (await storage.storage.insert(ordersTable, { status: 'paid', cancel_reason: null, owner_sub: 'alice' }))
        .id as number
    const cancel = (id: number, reason: string) =>
      call(server, { method: 'POST', url: `/v2/orders/${id}/cancellations`, payload: { reason }, headers: opsAdmin })

    it('a handler throwing AppProblemError(200) must not answer 200 (nor 201)', async () => {
      const answer = await cancel(await place(), 'problem-200')
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400)
    })

    it('problem(200) / throw undefined: 500 operation_failed problem+json', async () => {
      for (const reason of ['problem-bad', 'throw-undefined']) {
        const answer = await cancel(await place(), reason)
        expect(answer.status, reason).toBe(500)
        expect(answer.type).toContain('application/problem+json')
        expect(answer.body.code).toBe('operation_failed')
      }
    })

    it('a handler that writes through db then throws problem(): the write must not stay (operations are not atomic)', async () => {
      const id = await place()
      const answer = await cancel(id, 'write-then-problem')
      expect(answer.status).toBe(409)
      const stored = await storage.storage.find(ordersTable, id)
      expect(stored?.status, 'the refused operation still cancelled the order').toBe('paid')
    })
  })

  describe(`${dialect}: the example's cancellations with input the validator lets through`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    beforeAll(async () => {
      storage = await openTestStorage(dialect, exampleTables)
      server = await buildExampleServer({
        storage: storage.storage,
        docs: false,
        env: { JWT_SECRET: EXAMPLE_JWT_SECRET },
        logger: false,
      })
    })
    afterAll(async () => {
      await server?.close()
      await storage?.dispose()
    })

    it('a reason with a NUL byte: a 400 naming /reason, and the order not cancelled', async () => {
      const order = (await call(server, { method: 'POST', url: '/v2/orders', payload: {}, headers: exampleAdmin })).body
        .data.id
      const answer = await call(server, {
        method: 'POST',
        url: `/v2/orders/${order}/cancellations`,
        payload: { reason: 'a\u0000b' },
        headers: exampleAdmin,
      })
      const stored = (await call(server, { method: 'GET', url: `/v2/orders/${order}`, headers: exampleAdmin })).body
        .data
      expect(
        { status: answer.status, code: answer.body.code, cancelled: stored.cancelled_at !== null },
        JSON.stringify(answer.body),
      ).toEqual({ status: 400, code: 'validation_failed', cancelled: false })
    })

    it('the same NUL byte in a plain create is a 400 (for comparison)', async () => {
      const answer = await call(server, {
        method: 'POST',
        url: '/v2/orders/1/items',
        payload: { quantity: 1, note: 'a\u0000b' },
        headers: exampleAdmin,
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    })
  })
}
