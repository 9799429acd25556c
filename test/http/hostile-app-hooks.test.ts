import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppProblemError, defineApp, problem, ProblemError } from '../../runtime/index.js'
import { allTables } from '../fixtures/hooks-api/generated/schema.js'
import { appModule } from '../fixtures/hooks-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { buildHooksAppWith, call, watchProcess } from './hostile-pg-support.js'

/**
 * Hostile: hooks and compute functions that misbehave, over the hooks-api
 * fixture with an app module of our own. Behaviour picked by `customer`.
 */
// The app code's deadline (timeouts.hookMs): short, so a hook that never settles fails within the test.
const HOOK_MS = 500
const revoked = Proxy.revocable({}, {})
revoked.revoke()

const throwables: Record<string, () => unknown> = {
  'throw-undefined': () => undefined,
  'throw-null': () => null,
  'throw-string': () => 'just a string',
  'throw-number': () => 42,
  'throw-symbol': () => Symbol('s'),
  'throw-object': () => ({ statusCode: 200, message: 'ok?' }),
  'throw-revoked-proxy': () => revoked.proxy,
  'throw-problem-200': () => problem(200, 'ok', 'fine'),
  'throw-problem-999': () => problem(999, 'weird', 'x'),
  'throw-problem-abc': () => problem('abc' as any, 'weird', 'x'),
}

let computeMode = 'ok'
const hung: (() => void)[] = []

const app = defineApp({
  ...appModule,
  hooks: {
    ...appModule.hooks,
    orders: {
      ...appModule.hooks!.orders,
      beforeCreate: async ({ body }: any) => {
        const c = body.customer as string
        if (c in throwables) throw throwables[c]!()
        if (c === 'ret-string') return 'not a body'
        if (c === 'ret-array') return [1, 2]
        if (c === 'ret-number') return 5
        if (c === 'ret-id') return { ...body, id: 12345 }
        if (c === 'ret-created') return { ...body, created_at: '2000-01-01T00:00:00Z' }
        if (c === 'ret-unknown') return { ...body, colour: 'red' }
        if (c === 'ret-undefined-member') return { ...body, customer: undefined }
        if (c === 'ret-date') return { ...body, label: new Date() }
        if (c === 'ret-bigint') return { ...body, total: 10n }
        if (c === 'app-problem-200') throw new AppProblemError(200, 'fine', 'all good', {})
        if (c === 'app-problem-999') throw new AppProblemError(999, 'weird', 'x', {})
        if (c === 'problem-error-bogus') throw new ProblemError('not_a_code' as any, 'x')
        if (c === 'pointer-proto')
          throw problem(422, 'bad', 'x', { pointers: { '/__proto__': 'p', '/constructor': 'c' } })
        if (c === 'pointers-string') throw problem(422, 'bad', 'x', { pointers: 'abc' as any })
        if (c === 'detail-object') throw problem(422, 'bad', { toString: 1 } as any)
        return { ...body, total: 0 }
      },
      afterCreate: async ({ record, db }: any) => {
        const c = record.customer as string
        if (c === 'write-then-throw') {
          await db.audits.create({ action: 'wtt', record_id: record.id })
          await db.labels.create({ name: `wtt-${record.id}` })
          throw new Error('after writing')
        }
        if (c === 'unawaited-then-throw') {
          void db.audits.create({ action: 'utt', record_id: record.id }).catch(() => {})
          throw new Error('after an unawaited write')
        }
        if (c === 'unawaited-then-problem') {
          void db.audits.create({ action: 'utp', record_id: record.id }).catch(() => {})
          throw problem(409, 'nope', 'refused')
        }
        if (c === 'app-problem-200-after') throw new AppProblemError(200, 'fine', 'all good', {})
        if (c === 'never-resolves') return new Promise<void>((resolve) => hung.push(resolve))
      },
      afterCommit: async () => {},
      afterUpdate: async () => {},
      afterDelete: async () => {},
      beforeUpdate: async () => {},
      beforeDelete: async () => {},
    },
  },
  compute: {
    ...appModule.compute,
    orders: async (orders: any[]) => {
      if (computeMode === 'undefined') return undefined
      if (computeMode === 'null') return null
      if (computeMode === 'object') return { line_count: 1 }
      if (computeMode === 'wrong-type') return orders.map(() => ({ line_count: 'many' }))
      if (computeMode === 'fraction') return orders.map(() => ({ line_count: 1.5 }))
      if (computeMode === 'short') return orders.slice(1).map(() => ({ line_count: 7 }))
      if (computeMode === 'long') return [...orders, ...orders].map(() => ({ line_count: 7 }))
      if (computeMode === 'bigint') return orders.map(() => ({ line_count: 5n }))
      if (computeMode === 'array-items') return orders.map(() => [{ line_count: 3 }])
      if (computeMode === 'throw-string') throw 'oops'
      return orders.map(() => ({ line_count: 0 }))
    },
  },
} as any)

for (const dialect of DIALECTS) {
  describe(`${dialect}: misbehaving hooks`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    const logged: Record<string, unknown>[] = []

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      server = await buildHooksAppWith(storage.storage, app, logged, HOOK_MS)
    })
    afterAll(async () => {
      for (const release of hung.splice(0)) release()
      await new Promise((resolve) => setTimeout(resolve, 50))
      await server?.close()
      await storage?.dispose()
    })

    const create = (customer: string) => call(server, { method: 'POST', url: '/v2/orders', payload: { customer } })
    const orders = async (customer: string) =>
      (await call(server, { method: 'GET', url: `/v2/orders?customer=${encodeURIComponent(customer)}` })).body
        .data as unknown[]
    const audits = async (action: string) =>
      ((await call(server, { method: 'GET', url: `/v2/audits?action=${action}` })).body.data as unknown[]).length

    for (const name of Object.keys(throwables)) {
      it(`beforeCreate ${name}: 500 hook_failed problem+json, nothing written`, async () => {
        const watch = watchProcess()
        try {
          const answer = await create(name)
          expect(answer.type, JSON.stringify(answer.body)).toContain('application/problem+json')
          expect(answer.status, JSON.stringify(answer.body)).toBe(500)
          expect(answer.body.code).toBe('hook_failed')
          expect(await orders(name)).toHaveLength(0)
          expect(watch.caught).toEqual([])
        } finally {
          watch.stop()
        }
      })
    }

    it('beforeCreate returning a string / array / number: 500 hook_failed', async () => {
      for (const c of ['ret-string', 'ret-array', 'ret-number']) {
        const answer = await create(c)
        expect(answer.status, c).toBe(500)
        expect(answer.body.code, c).toBe('hook_failed')
      }
    })

    it('beforeCreate returning id / created_at / unknown field: 400 naming it, nothing written', async () => {
      for (const [c, pointer] of [
        ['ret-id', '/id'],
        ['ret-created', '/created_at'],
        ['ret-unknown', '/colour'],
      ] as const) {
        const answer = await create(c)
        expect(answer.status, `${c} ${JSON.stringify(answer.body)}`).toBe(400)
        expect(answer.type).toContain('application/problem+json')
        expect(answer.body.errors.map((e: any) => e.pointer)).toContain(pointer)
        expect(await orders(c)).toHaveLength(0)
      }
    })

    it('beforeCreate setting a member to undefined leaves it out: it keeps its value', async () => {
      const answer = await create('ret-undefined-member')
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
      expect(answer.body.data.customer).toBe('ret-undefined-member')
    })

    it('beforeCreate setting a member to a Date / bigint: a 4xx/5xx problem, never a crash', async () => {
      for (const c of ['ret-date', 'ret-bigint']) {
        const answer = await create(c)
        expect(answer.type, `${c} ${answer.status} ${JSON.stringify(answer.body)}`).toContain(
          'application/problem+json',
        )
        expect([400, 500], `${c} ${JSON.stringify(answer.body)}`).toContain(answer.status)
      }
    })

    it('AppProblemError(200) thrown from beforeCreate must not answer 200 (exported class bypasses problem())', async () => {
      const answer = await create('app-problem-200')
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400)
    })

    it('AppProblemError(200) thrown from afterCreate: the write is rolled back, so the answer must not be 2xx', async () => {
      const answer = await create('app-problem-200-after')
      expect(await orders('app-problem-200-after')).toHaveLength(0)
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400)
    })

    it('AppProblemError(999) from a hook: a 500 problem+json', async () => {
      const answer = await create('app-problem-999')
      expect(answer.type, `${answer.status} ${JSON.stringify(answer.body)}`).toContain('application/problem+json')
      expect(answer.status).toBe(500)
    })

    it('ProblemError with a code outside the catalogue: a 500 problem+json', async () => {
      const answer = await create('problem-error-bogus')
      expect(answer.type, `${answer.status} ${JSON.stringify(answer.body)}`).toContain('application/problem+json')
      expect(answer.status).toBe(500)
    })

    it('problem() with odd pointers / detail: still problem+json, no crash', async () => {
      for (const c of ['pointer-proto', 'pointers-string', 'detail-object']) {
        const answer = await create(c)
        expect(answer.type, `${c} ${answer.status} ${JSON.stringify(answer.body)}`).toContain(
          'application/problem+json',
        )
        expect(answer.status, c).toBeGreaterThanOrEqual(400)
      }
      // through v1 too (pointer translation)
      const v1 = await call(server, { method: 'POST', url: '/v1/orders', payload: { customer: 'pointer-proto' } })
      expect(v1.type, JSON.stringify(v1.body)).toContain('application/problem+json')
      expect(v1.status).toBe(422)
    })

    it('afterCreate writes through db then throws: order, audit and label all absent', async () => {
      const answer = await create('write-then-throw')
      expect(answer.status).toBe(500)
      expect(answer.body.code).toBe('hook_failed')
      expect(await orders('write-then-throw')).toHaveLength(0)
      expect(await audits('wtt')).toBe(0)
      const labels = (await call(server, { method: 'GET', url: '/v2/labels?filter[name][starts_with]=wtt-' })).body.data
      expect(labels).toHaveLength(0)
    })

    it('afterCreate fires an unawaited db write then throws: the order is rolled back, so must its audit be', async () => {
      const answer = await create('unawaited-then-throw')
      expect(answer.status).toBe(500)
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(await orders('unawaited-then-throw')).toHaveLength(0)
      expect(await audits('utt'), 'audit row of a rolled-back create survives').toBe(0)
    })

    it('afterCreate fires an unawaited db write then throws problem(): no orphan audit', async () => {
      const answer = await create('unawaited-then-problem')
      expect(answer.status).toBe(409)
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(await orders('unawaited-then-problem')).toHaveLength(0)
      expect(await audits('utp'), 'audit row of a rolled-back create survives').toBe(0)
    })

    describe('compute functions that misbehave', () => {
      const modes = ['undefined', 'null', 'object', 'bigint', 'throw-string', 'array-items', 'wrong-type', 'fraction']
      for (const mode of modes) {
        it(`compute returns ${mode}: a create still answers 201 (the write committed), computed field null`, async () => {
          computeMode = mode
          try {
            const answer = await create(`compute-${mode}`)
            computeMode = 'ok'
            const stored = await orders(`compute-${mode}`)
            expect(stored, 'the create committed').toHaveLength(1)
            expect(answer.status, `committed, yet answered ${JSON.stringify(answer.body)}`).toBe(201)
            expect(answer.body.data.line_count).toBeNull()
          } finally {
            computeMode = 'ok'
          }
        })
        it(`compute returns ${mode}: a list answers 500 hook_failed problem+json (not internal_error)`, async () => {
          computeMode = mode
          try {
            const answer = await call(server, { method: 'GET', url: '/v2/orders' })
            expect(answer.type).toContain('application/problem+json')
            expect(answer.status).toBe(500)
            expect(answer.body.code, JSON.stringify(answer.body)).toBe('hook_failed')
          } finally {
            computeMode = 'ok'
          }
        })
      }

      it('compute returns an array of the wrong length: detected, not silently misassigned', async () => {
        await create('len-1')
        await create('len-2')
        for (const mode of ['short', 'long']) {
          computeMode = mode
          try {
            const answer = await call(server, { method: 'GET', url: '/v2/orders?per_page=5' })
            expect(answer.status, `${mode}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(500)
          } finally {
            computeMode = 'ok'
          }
        }
      })
    })

    it('an afterCreate that never settles fails at the deadline: 500 hook_failed, rolled back, the API answers on', async () => {
      const hanging = call(server, { method: 'POST', url: '/v2/orders', payload: { customer: 'never-resolves' } })
      await new Promise((resolve) => setTimeout(resolve, 100))
      // On SQLite the transaction holds the connection: this waits for the deadline, not for ever.
      expect((await call(server, { method: 'GET', url: '/v2/labels' })).status).toBe(200)
      const answer = await hanging
      expect(answer.status, JSON.stringify(answer.body)).toBe(500)
      expect(answer.body.code).toBe('hook_failed')
      expect(await orders('never-resolves')).toHaveLength(0)
      expect(logged.some((line) => JSON.stringify(line).includes(`did not finish within ${HOOK_MS} ms`))).toBe(true)
      expect((await call(server, { method: 'POST', url: '/v2/labels', payload: { name: 'after-hang' } })).status).toBe(
        201,
      )
    })
  })
}
