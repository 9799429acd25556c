import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineApp, TransactionAbortedError, UniqueViolationError } from '../../runtime/index.js'
import { allTables } from '../fixtures/hooks-api/generated/schema.js'
import { appModule } from '../fixtures/hooks-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { buildHooksAppWith, call, watchProcess } from './hostile-pg-support.js'

/**
 * Hostile: after-hooks that misuse `db` (swallow a write's failure, leave a
 * write unawaited, write after the hook returned). Whatever the database,
 * the answer and the database must agree, and the process must not crash.
 */
const late: unknown[] = []

const app = defineApp({
  ...appModule,
  hooks: {
    ...appModule.hooks,
    orders: {
      ...appModule.hooks!.orders,
      afterCreate: async ({ record, db }: any) => {
        if (record.customer === 'swallow') {
          // A hook guarding against a duplicate it expects, as it would on any database.
          await db.audits.create({ action: 'order_created', record_id: record.id })
          try {
            await db.labels.create({ name: 'taken' })
          } catch {
            // "already there": fine
          }
          return
        }
        if (record.customer === 'unawaited-ok') {
          void db.audits.create({ action: 'unawaited', record_id: record.id })
          return
        }
        if (record.customer === 'unawaited-fail') {
          void db.labels.create({ name: 'taken' }).catch(() => {})
          return
        }
        if (record.customer === 'late') {
          setTimeout(() => {
            db.audits.create({ action: 'late', record_id: record.id }).then(
              () => late.push('written'),
              (error: Error) => late.push(error.message),
            )
          }, 20)
          return
        }
        return appModule.hooks!.orders!.afterCreate!({ record, db } as any)
      },
    },
  },
} as any)

for (const dialect of DIALECTS) {
  describe(`${dialect}: after-hooks misusing db`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    const logged: Record<string, unknown>[] = []

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      server = await buildHooksAppWith(storage.storage, app, logged)
      expect((await call(server, { method: 'POST', url: '/v2/labels', payload: { name: 'taken' } })).status).toBe(201)
    })
    afterAll(async () => {
      await server?.close()
      await storage?.dispose()
    })

    const orders = async (customer: string) =>
      (await call(server, { method: 'GET', url: `/v2/orders?customer=${customer}` })).body.data as { id: number }[]
    const audits = async (action: string) =>
      ((await call(server, { method: 'GET', url: `/v2/audits?action=${action}` })).body.data as { id: number }[]).length

    // SQLite goes on after a failed statement; PostgreSQL fails the transaction: the create is rolled back, and
    // that is the hook's failure (500 hook_failed, logged with its name), as when it throws.
    const rolledBackByTheHook = async (customer: string) => {
      logged.length = 0
      const answer = await call(server, { method: 'POST', url: '/v2/orders', payload: { customer } })
      const stored = await orders(customer)
      if (dialect === 'sqlite') {
        expect(answer.status).toBe(201)
        expect(stored).toHaveLength(1)
        return
      }
      expect(stored).toHaveLength(0)
      expect(answer.status, JSON.stringify(answer.body)).toBe(500)
      expect(answer.type).toContain('application/problem+json')
      expect(answer.body).toMatchObject({ code: 'hook_failed', detail: expect.stringContaining('rolled back') })
      expect(logged).toContainEqual(expect.objectContaining({ hook: 'orders.afterCreate' }))
    }

    it('a write failure the hook caught: on PostgreSQL the create is rolled back, 500 hook_failed', async () => {
      await rolledBackByTheHook('swallow')
    })

    it('storage.transaction: a failure its work hid rejects TransactionAbortedError on PostgreSQL, commits on SQLite', async () => {
      const labels = allTables.find((table) => table.name === 'labels')!
      const outcome = storage.storage.transaction(async (tx) => {
        await tx.insert(labels, { name: 'hidden-1' })
        await expect(tx.insert(labels, { name: 'taken' })).rejects.toBeInstanceOf(UniqueViolationError)
        return 'resolved'
      })
      const names = async () =>
        (await storage.storage.list(labels, { rowFilter: { name: 'hidden-1' }, limit: 5, count: 'none' })).rows
      if (dialect === 'sqlite') {
        await expect(outcome).resolves.toBe('resolved')
        expect(await names()).toHaveLength(1)
      } else {
        await expect(outcome).rejects.toBeInstanceOf(TransactionAbortedError)
        await expect(outcome).rejects.toMatchObject({ cause: { code: '23505' } })
        expect(await names()).toHaveLength(0)
      }
    })

    it('an unawaited write that succeeds is committed with the create', async () => {
      const answer = await call(server, { method: 'POST', url: '/v2/orders', payload: { customer: 'unawaited-ok' } })
      expect(answer.status).toBe(201)
      expect(await orders('unawaited-ok')).toHaveLength(1)
      expect(await audits('unawaited')).toBe(1)
    })

    it('a write the hook did not await fails: on PostgreSQL the create is rolled back, 500 hook_failed', async () => {
      await rolledBackByTheHook('unawaited-fail')
    })

    it('a write after the hook returned fails on its own; no crash, the create stands', async () => {
      const watch = watchProcess()
      try {
        const answer = await call(server, { method: 'POST', url: '/v2/orders', payload: { customer: 'late' } })
        expect(answer.status).toBe(201)
        await new Promise((resolve) => setTimeout(resolve, 100))
        expect(late).toEqual(['a statement was sent after its transaction ended: await every statement in it'])
        expect(await audits('late')).toBe(0)
        expect(watch.caught).toEqual([])
        expect(await orders('late')).toHaveLength(1)
      } finally {
        watch.stop()
        late.length = 0
      }
    })
  })
}
