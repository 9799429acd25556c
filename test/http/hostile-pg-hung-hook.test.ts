import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineApp } from '../../runtime/index.js'
import { allTables } from '../fixtures/hooks-api/generated/schema.js'
import { appModule } from '../fixtures/hooks-api/generated/server.js'
import { backendsOf, buildHooksAppWith, call, openHostileStorage, type HostileStorage } from './hostile-pg-support.js'
import pg from 'pg'

/**
 * Hostile: an afterCreate hook that never settles holds its write's
 * transaction, and with it a pool connection, until the app code's deadline
 * (timeouts.hookMs): then it fails, rolls back and gives the connection back,
 * so a few such requests cannot exhaust the pool.
 */
const HOOK_MS = 500
const hung: (() => void)[] = []
const app = defineApp({
  ...appModule,
  hooks: {
    ...appModule.hooks,
    orders: {
      ...appModule.hooks!.orders,
      afterCreate: async ({ record }: any) => {
        if (record.customer === 'hang') await new Promise<void>((resolve) => hung.push(resolve))
      },
    },
  },
} as any)

describe('postgres: a hung afterCreate', () => {
  let hostile: HostileStorage
  let server: FastifyInstance
  let admin: pg.Client
  const logged: Record<string, unknown>[] = []

  beforeAll(async () => {
    hostile = await openHostileStorage(allTables, { size: 2, timeoutMs: 1000 })
    server = await buildHooksAppWith(hostile.storage, app, logged, HOOK_MS)
    admin = await hostile.admin()
  })
  afterAll(async () => {
    for (const release of hung.splice(0)) release()
    await new Promise((resolve) => setTimeout(resolve, 100))
    await server?.close()
    await hostile?.dispose()
  })

  it('two hung hooks (pool of 2): both fail at the deadline, the API answers on, no connection stays idle in transaction', async () => {
    const pending = [1, 2].map(() => call(server, { method: 'POST', url: '/v2/orders', payload: { customer: 'hang' } }))
    await new Promise((resolve) => setTimeout(resolve, 300))
    const states = (await backendsOf(admin, hostile.application)).map((b) => b.state)
    expect(states.filter((state) => state === 'idle in transaction')).toHaveLength(2)
    // Waits for a connection until the hooks' deadline frees one (the pool's own wait is 1 s).
    const answer = await call(server, { method: 'GET', url: '/v2/labels' })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    for (const hung of await Promise.all(pending)) {
      expect(hung.status).toBe(500)
      expect(hung.body.code).toBe('hook_failed')
    }
    const later = (await backendsOf(admin, hostile.application)).map((b) => b.state)
    expect(later).not.toContain('idle in transaction')
    expect((await call(server, { method: 'GET', url: '/v2/orders?customer=hang' })).body.data).toEqual([])
  }, 20_000)
})
