import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineApp } from '../../runtime/index.js'
import { allTables } from '../fixtures/hooks-api/generated/schema.js'
import { appModule } from '../fixtures/hooks-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { buildHooksAppWith, call } from './hostile-pg-support.js'

// A compute function that fails after a write committed must not answer 500 for a write that stands (a client
// would retry it): the write's answer stands with the computed field null. On a read, 500 hook_failed.
const failing = defineApp({
  ...appModule,
  compute: {
    ...appModule.compute,
    orders: async () => {
      throw new Error('the compute function of orders failed')
    },
  },
} as typeof appModule)

for (const dialect of DIALECTS) {
  describe(`${dialect}: a compute function failing after a write`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    const logged: Record<string, unknown>[] = []

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      server = await buildHooksAppWith(storage.storage, failing, logged)
    })
    afterAll(async () => {
      await server?.close()
      await storage?.dispose()
    })

    it('answers the create 201 with the computed field null, logs the failure, and a read 500 hook_failed', async () => {
      const created = await call(server, { method: 'POST', url: '/v2/orders', payload: { customer: 'computed later' } })
      expect(created.status).toBe(201)
      expect(created.body.data).toMatchObject({ customer: 'computed later', line_count: null })
      expect(logged.some((entry) => entry.hook === 'orders.compute')).toBe(true)
      const read = await call(server, { method: 'GET', url: `/v2/orders/${created.body.data.id}` })
      expect(read.status).toBe(500)
      expect(read.body.code).toBe('hook_failed')
    })
  })
}
