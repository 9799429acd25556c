import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allTables as hooksTables } from '../fixtures/hooks-api/generated/schema.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'
import { buildHooksApp, call, openHostileStorage, watchProcess, type HostileStorage } from './hostile-pg-support.js'

/**
 * Hostile: a pool of 1 whose wait for a connection is short, under a burst of
 * creates with hooks: each answer is a 201 whose order is stored, or a 503
 * (Retry-After) whose order is not.
 */
for (const timeoutMs of [20, 50, 100, 200, 400])
  describe.skipIf(POSTGRES_OFF)(`hostile: a burst over a busy pool (wait ${timeoutMs} ms)`, () => {
    let hostile: HostileStorage
    let app: FastifyInstance
    let admin: pg.Client

    beforeAll(async () => {
      hostile = await openHostileStorage(hooksTables, { size: 1, timeoutMs })
      app = await buildHooksApp(hostile.storage)
      admin = await hostile.admin()
    })
    afterAll(async () => {
      await app?.close()
      await hostile?.dispose()
    })

    it('201 with the order, or 503 without it', async () => {
      const watch = watchProcess()
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          call(app, { method: 'POST', url: '/v2/orders', payload: { customer: `busy-${i}` } }).then((answer) => ({
            i,
            answer,
          })),
        ),
      )
      watch.stop()
      const { rows } = await admin.query(`select customer from orders where customer like 'busy-%'`)
      const stored = new Set(rows.map((row) => row.customer as string))
      const wrong: string[] = []
      const tally: Record<string, number> = {}
      for (const { i, answer } of answers) {
        const key = `${answer.status} ${answer.body?.code ?? ''}`
        tally[key] = (tally[key] ?? 0) + 1
        const present = stored.has(`busy-${i}`)
        if (answer.status === 201 && !present) wrong.push(`${i}: 201, not stored`)
        else if (answer.status === 503 && present) wrong.push(`${i}: 503, stored`)
        else if (answer.status !== 201 && answer.status !== 503)
          wrong.push(
            `${i}: ${answer.status} ${answer.body?.code} ${answer.body?.detail}, ${present ? 'stored' : 'not stored'}`,
          )
      }
      console.log(timeoutMs, tally)
      expect(wrong).toEqual([])
      expect(watch.caught).toEqual([])
    })
  })
