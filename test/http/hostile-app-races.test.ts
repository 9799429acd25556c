import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer as buildExampleServer } from '../../generated/server.js'
import { allTables as exampleTables } from '../../generated/schema.js'
import { defineApp } from '../../runtime/index.js'
import { allTables as hooksTables } from '../fixtures/hooks-api/generated/schema.js'
import { appModule } from '../fixtures/hooks-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { buildHooksAppWith, call, EXAMPLE_JWT_SECRET, exampleBearer } from './hostile-pg-support.js'

/**
 * Hostile races around hooks and custom operations.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

for (const dialect of DIALECTS) {
  describe(`${dialect}: hooks under concurrent writes (hooks-api)`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    const logged: Record<string, unknown>[] = []
    beforeAll(async () => {
      storage = await openTestStorage(dialect, hooksTables)
      server = await buildHooksAppWith(storage.storage, appModule, logged)
    })
    afterAll(async () => {
      await server?.close()
      await storage?.dispose()
    })
    const create = async (customer: string) =>
      (await call(server, { method: 'POST', url: '/v2/orders', payload: { customer } })).body.data.id as number
    const read = async (id: number) => (await call(server, { method: 'GET', url: `/v2/orders/${id}` })).body

    it('storm: 200 concurrent PATCH/DELETE on 10 orders with every hook: no 500, audits match what happened', async () => {
      const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => create(`storm-${i}`)))
      const requests = []
      for (let i = 0; i < 200; i++) {
        const id = ids[i % ids.length]!
        if (i % 7 === 0) requests.push(call(server, { method: 'DELETE', url: `/v2/orders/${id}` }))
        else
          requests.push(
            call(server, {
              method: 'PATCH',
              url: `/v2/orders/${id}`,
              payload: i % 3 === 0 ? { status: 'paid' } : { customer: `storm-${i}` },
            }),
          )
      }
      const answers = await Promise.all(requests)
      const statuses = answers.map((a) => a.status)
      expect(
        statuses.filter((s) => s >= 500),
        JSON.stringify(answers.find((a) => a.status >= 500)?.body),
      ).toEqual([])
      const deletes = answers.filter((a, i) => i % 7 === 0 && a.status === 204).length
      const updates = answers.filter((a, i) => i % 7 !== 0 && a.status === 200).length
      const audits = async (action: string) =>
        (
          await call(server, {
            method: 'GET',
            url: `/v2/audits?action=${action}&filter[record_id][in]=${ids.join(',')}&per_page=1&count=exact`,
          })
        ).body.meta.total
      expect(await audits('order_deleted')).toBe(deletes)
      expect(await audits('order_updated')).toBe(updates)
      const start = Date.now()
      expect((await call(server, { method: 'GET', url: '/v2/orders' })).status).toBe(200)
      expect(Date.now() - start).toBeLessThan(1000)
    })

    it('concurrent links of the same label (unique order_id,label_id) with afterCreate audits: one link, one audit', async () => {
      const order = await create('linker')
      const label = (await call(server, { method: 'POST', url: '/v2/labels', payload: { name: 'dup-label' } })).body
        .data.id
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(server, { method: 'POST', url: `/v2/orders/${order}/labels`, payload: { label_id: label } }),
        ),
      )
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses.filter((s) => s === 201)).toHaveLength(1)
      expect(
        statuses.filter((s) => s !== 201 && s !== 409),
        JSON.stringify(answers.map((a) => a.body)),
      ).toEqual([])
      const linked = (await call(server, { method: 'GET', url: '/v2/audits?action=label_linked' })).body.data
      expect(linked).toHaveLength(1)
      await sleep(50)
      const committed = (await call(server, { method: 'GET', url: '/v2/audits?action=link_committed_create' })).body
        .data
      expect(committed).toHaveLength(1)
    })
  })

  describe(`${dialect}: the example's own code under concurrency`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    const admin = exampleBearer('root', 'orders:admin audits:admin posts:write')
    beforeAll(async () => {
      storage = await openTestStorage(dialect, exampleTables)
      server = await buildExampleServer({
        storage: storage.storage,
        docs: false,
        env: { JWT_SECRET: EXAMPLE_JWT_SECRET },
      })
    })
    afterAll(async () => {
      await server?.close()
      await storage?.dispose()
    })

    it("items' afterCreate keeps the order's total: 20 concurrent items on one order, total = sum of line totals", async () => {
      const product = (
        await call(server, { method: 'POST', url: '/v2/products', payload: { title: 'Pen', price: 2 }, headers: admin })
      ).body.data.id
      const order = (await call(server, { method: 'POST', url: '/v2/orders', payload: {}, headers: admin })).body.data
        .id
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(server, {
            method: 'POST',
            url: `/v2/orders/${order}/items`,
            payload: { quantity: 1, product_id: product },
            headers: admin,
          }),
        ),
      )
      expect(
        answers.map((a) => a.status).filter((s) => s !== 201),
        JSON.stringify(answers[0]!.body),
      ).toEqual([])
      const total = (await call(server, { method: 'GET', url: `/v2/orders/${order}`, headers: admin })).body.data.total
      expect(total, 'the order total lost concurrent items').toBe(40)
    })

    it('concurrent cancellations of one order: exactly one 201, the rest 409 order_cancelled, one audit', async () => {
      const order = (await call(server, { method: 'POST', url: '/v2/orders', payload: {}, headers: admin })).body.data
        .id
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(server, {
            method: 'POST',
            url: `/v2/orders/${order}/cancellations`,
            payload: { reason: `r${i}` },
            headers: admin,
          }),
        ),
      )
      const statuses = answers.map((a) => a.status)
      const audits = (
        await call(server, { method: 'GET', url: `/v2/audits?resource=orders&record_id=${order}`, headers: admin })
      ).body.data
      expect(
        { created: statuses.filter((s) => s === 201).length, audits: audits.length },
        `statuses ${statuses.join(',')}`,
      ).toEqual({ created: 1, audits: 1 })
    })
  })
}
