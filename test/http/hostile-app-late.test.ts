import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineApp } from '../../runtime/index.js'
import { allTables } from '../fixtures/hooks-api/generated/schema.js'
import { appModule } from '../fixtures/hooks-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { buildHooksAppWith, call, watchProcess } from './hostile-pg-support.js'

/**
 * Hostile: `db` used after its hook's transaction ended, and afterCommit hooks
 * that misbehave (their errors must never change the response).
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
// The app code's deadline (timeouts.hookMs): an afterCommit that never settles is given up on after it.
const HOOK_MS = 500
const late: string[] = []
const hung: (() => void)[] = []
const revoked = Proxy.revocable({}, {})
revoked.revoke()

const app = defineApp({
  ...appModule,
  hooks: {
    ...appModule.hooks,
    orders: {
      ...appModule.hooks!.orders,
      afterCreate: async ({ record, db }: any) => {
        if (record.customer === 'late') {
          setTimeout(() => {
            db.audits.create({ action: 'late-write', record_id: record.id }).then(
              () => late.push('resolved'),
              (error: Error) => late.push(`rejected: ${error.message}`),
            )
          }, 30)
          return
        }
        if (record.customer === 'slow-fail') {
          await sleep(150)
          throw new Error('rolled back on purpose')
        }
      },
      afterCommit: async ({ record }: any) => {
        if (record.customer === 'commit-revoked') throw revoked.proxy
        if (record.customer === 'commit-getter') {
          throw {
            get message() {
              throw new Error('getter')
            },
            get stack() {
              throw new Error('getter')
            },
          }
        }
        if (record.customer === 'commit-hang') await new Promise<void>((resolve) => hung.push(resolve))
      },
    },
  },
} as any)

for (const dialect of DIALECTS) {
  describe(`${dialect}: db after the transaction, afterCommit misbehaving`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    const logged: Record<string, unknown>[] = []
    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      server = await buildHooksAppWith(storage.storage, app, logged, HOOK_MS)
    })
    afterAll(async () => {
      for (const release of hung.splice(0)) release()
      await sleep(50)
      await server?.close()
      await storage?.dispose()
    })
    const audits = async (action: string) =>
      ((await call(server, { method: 'GET', url: `/v2/audits?action=${action}` })).body.data as unknown[]).length

    it("a db write made after its hook returned, while another request's transaction is open: it must reject (as documented), or else stand; never resolve and then vanish", async () => {
      late.length = 0
      const first = await call(server, { method: 'POST', url: '/v2/orders', payload: { customer: 'late' } })
      expect(first.status).toBe(201)
      // Opens a transaction that is rolled back 150 ms later; the late write fires 30 ms after the first answer.
      const second = await call(server, { method: 'POST', url: '/v2/orders', payload: { customer: 'slow-fail' } })
      expect(second.status).toBe(500)
      await sleep(100)
      const written = await audits('late-write')
      expect(late).toHaveLength(1)
      // Documented: "A db call made after the hook returned (a timer, an event) belongs to no transaction and rejects."
      expect({ late: late[0], written }).toEqual({ late: expect.stringMatching(/^rejected/), written: 0 })
    })

    it('afterCommit throwing a revoked proxy / an object whose getters throw: the committed create still answers 201', async () => {
      const watch = watchProcess()
      try {
        const statuses: Record<string, number> = {}
        for (const customer of ['commit-revoked', 'commit-getter']) {
          statuses[customer] = (await call(server, { method: 'POST', url: '/v2/orders', payload: { customer } })).status
        }
        expect(statuses).toEqual({ 'commit-revoked': 201, 'commit-getter': 201 })
        expect(watch.caught).toEqual([])
      } finally {
        watch.stop()
      }
    })

    it('afterCommit that never settles: the committed create must still be answered', async () => {
      const answer = await Promise.race([
        call(server, { method: 'POST', url: '/v2/orders', payload: { customer: 'commit-hang' } }),
        sleep(3000).then(() => 'no answer after 3 s' as const),
      ])
      const stored = (await call(server, { method: 'GET', url: '/v2/orders?customer=commit-hang' })).body.data
      expect(stored).toHaveLength(1)
      expect(answer).not.toBe('no answer after 3 s')
    })
  })
}
