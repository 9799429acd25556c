import { randomBytes } from 'node:crypto'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { allTables } from '../fixtures/hooks-api/generated/schema.js'
import { buildServer } from '../fixtures/hooks-api/generated/server.js'
import openapi from '../fixtures/hooks-api/generated/v2/openapi.json' with { type: 'json' }
import { calls } from '../fixtures/hooks-api/src/app.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 16: the app module's hooks over HTTP, on both databases. The API is
 * test/fixtures/hooks-api; its src/app.ts picks each behaviour from the
 * values sent (a customer named `blocked`, `fail-after`, `fail-commit`…).
 */
const SECRET = randomBytes(32).toString('hex')
const now = () => Math.floor(Date.now() / 1000)
const token = (sub: string, scope: string) =>
  signJwt(
    { iss: 'https://auth.example.test/', aud: 'hooks-api', sub, scope, iat: now(), exp: now() + 300 },
    { alg: 'HS256', secret: SECRET },
  )

for (const dialect of DIALECTS) {
  describe(`${dialect}: app module hooks`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    const logged: Record<string, unknown>[] = []

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildServer({
        storage: storage.storage,
        docs: false,
        env: { HOOKS_TEST_JWT_SECRET: SECRET },
        logger: { level: 'error', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } },
      })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })
    beforeEach(async () => {
      logged.length = 0
      for (const table of ['audits', 'notes', 'orders']) {
        const { rows } = await storage.storage.list(
          allTables.find((each) => each.name === table)!,
          {
            rowFilter: {},
            limit: 1000,
            count: 'none',
          },
        )
        for (const row of rows)
          await storage.storage.delete(
            allTables.find((each) => each.name === table)!,
            row.id as number,
          )
      }
    })

    const call = async (options: InjectOptions) => {
      const response = await app.inject(options)
      const body = response.body ? JSON.parse(response.body) : null
      return { status: response.statusCode, type: String(response.headers['content-type']), body }
    }
    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      call({ method: 'POST', url, payload, headers })
    const list = async (collection: string) => (await call({ method: 'GET', url: `/v2/${collection}` })).body.data
    const audits = async () =>
      ((await list('audits')) as { action: string; record_id: number; actor: string | null; detail: string }[]).map(
        ({ action, record_id, actor, detail }) => ({ action, record_id, actor, detail }),
      )

    it('beforeCreate changes the body: the stored record is the hook’s', async () => {
      const created = await post('/v2/orders', { customer: '  alice ', label: 'lines:2x5,1x3' })
      expect(created.status).toBe(201)
      expect(created.body.data).toMatchObject({ customer: 'alice', total: 13, status: 'pending' })
      const read = await call({ method: 'GET', url: `/v2/orders/${created.body.data.id}` })
      expect(read.body.data).toMatchObject({ customer: 'alice', total: 13 })
    })

    it('a body a hook changed is validated again: 400 naming the field', async () => {
      const refused = await post('/v2/orders', { customer: 'invalid-change' })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({
        code: 'validation_failed',
        errors: [{ in: 'body', pointer: '/total', detail: expect.stringContaining('>= 0') }],
      })
      expect(await list('orders')).toEqual([])
    })

    it('a thrown problem answers with its status, code and pointer, and nothing is written', async () => {
      const refused = await post('/v2/orders', { customer: 'blocked' })
      expect(refused.status).toBe(422)
      expect(refused.type).toContain('application/problem+json')
      expect(refused.body).toEqual({
        type: 'about:blank',
        title: 'Unprocessable Entity',
        status: 422,
        detail: 'This customer may not order.',
        instance: '/v2/orders',
        code: 'customer_blocked',
        errors: [{ in: 'body', pointer: '/customer', detail: 'is blocked' }],
      })
      expect(await list('orders')).toEqual([])
      expect(await audits()).toEqual([])
    })

    it('a before-hook that throws anything else answers 500 hook_failed, logged with the hook’s name', async () => {
      const failed = await post('/v2/orders', { customer: 'crash-before' })
      expect(failed.status).toBe(500)
      expect(failed.body).toMatchObject({ code: 'hook_failed', status: 500 })
      expect(JSON.stringify(failed.body)).not.toContain('crashed on purpose')
      expect(logged).toContainEqual(expect.objectContaining({ hook: 'orders.beforeCreate' }))
      expect(await list('orders')).toEqual([])
    })

    it('afterCreate writes through db inside the write’s transaction, with the caller and version', async () => {
      const created = await post('/v2/orders', { customer: 'bob' }, { authorization: `Bearer ${token('bob', 'a b')}` })
      expect(created.status).toBe(201)
      const id = created.body.data.id
      expect(await audits()).toEqual([
        { action: 'order_created', record_id: id, actor: 'bob', detail: 'v2 seen 2 scopes' },
        { action: 'committed_create', record_id: id, actor: null, detail: null },
      ])
    })

    it('an afterCreate exception rolls the write back: the order and its audit row are both absent', async () => {
      const failed = await post('/v2/orders', { customer: 'fail-after' })
      expect(failed.status).toBe(500)
      expect(failed.body).toMatchObject({ code: 'hook_failed', detail: expect.stringContaining('rolled back') })
      expect(JSON.stringify(failed.body)).not.toMatch(/on purpose|stack|at /)
      expect(logged).toContainEqual(expect.objectContaining({ hook: 'orders.afterCreate' }))
      expect(await list('orders')).toEqual([])
      expect(await audits()).toEqual([])
    })

    it('a problem thrown by afterCreate rolls back and answers as thrown', async () => {
      const refused = await post('/v2/orders', { customer: 'refuse-after' })
      expect(refused.status).toBe(409)
      expect(refused.body).toMatchObject({
        code: 'order_refused',
        errors: [{ in: 'body', pointer: '/customer', detail: 'refused' }],
      })
      expect(await list('orders')).toEqual([])
      expect(await audits()).toEqual([])
    })

    it('an afterCommit error is logged and does not change the response', async () => {
      const created = await post('/v2/orders', { customer: 'fail-commit' })
      expect(created.status).toBe(201)
      expect(created.body.data).toMatchObject({ customer: 'fail-commit' })
      expect(logged).toContainEqual(expect.objectContaining({ hook: 'orders.afterCommit' }))
      expect((await audits()).map((audit) => audit.action)).toEqual(['order_created'])
      expect(await list('orders')).toHaveLength(1)
    })

    it('beforeUpdate sees the merged body on PATCH and the stored record; afterUpdate the previous one', async () => {
      const id = (await post('/v2/orders', { customer: 'carol' })).body.data.id
      const patched = await call({ method: 'PATCH', url: `/v2/orders/${id}`, payload: { status: 'paid' } })
      expect(patched.status).toBe(200)
      expect(patched.body.data).toMatchObject({ customer: 'carol', status: 'paid', label: 'carol/paid' })
      const replaced = await call({
        method: 'PUT',
        url: `/v2/orders/${id}`,
        payload: { customer: 'carol', status: 'shipped' },
      })
      expect(replaced.body.data).toMatchObject({ status: 'shipped', label: 'carol/shipped' })
      expect((await audits()).filter((audit) => audit.action === 'order_updated').map((a) => a.detail)).toEqual([
        'pending->paid',
        'paid->shipped',
      ])
      const refused = await call({ method: 'PATCH', url: `/v2/orders/${id}`, payload: { status: 'paid' } })
      expect(refused.status).toBe(409)
      expect(refused.body).toMatchObject({ code: 'order_shipped', title: 'Conflict' })
    })

    it('beforeDelete may refuse; afterDelete writes in the delete’s transaction', async () => {
      const id = (await post('/v2/orders', { customer: 'dave' })).body.data.id
      expect((await call({ method: 'DELETE', url: `/v2/orders/${id}` })).status).toBe(204)
      expect((await audits()).filter((audit) => audit.action.includes('delete'))).toEqual([
        { action: 'order_deleted', record_id: id, actor: null, detail: 'dave' },
        { action: 'committed_delete', record_id: id, actor: null, detail: null },
      ])
      const shipped = (await post('/v2/orders', { customer: 'erin', status: 'shipped' })).body.data.id
      const refused = await call({ method: 'DELETE', url: `/v2/orders/${shipped}` })
      expect(refused.status).toBe(409)
      expect(refused.body).toMatchObject({ code: 'order_shipped' })
      expect((await call({ method: 'GET', url: `/v2/orders/${shipped}` })).status).toBe(200)
    })

    it('one hook serves v1 and v2 of a renamed field: translated before and after it', async () => {
      const v2 = await post('/v2/notes', { content: 'hello' })
      expect(v2.body.data).toMatchObject({ content: 'HELLO' })
      const v1 = await post('/v1/notes', { text: 'world' })
      expect(v1.status).toBe(201)
      expect(v1.body.data).toMatchObject({ text: 'WORLD' })
      expect(v1.body.data).not.toHaveProperty('content')
      const refusedV1 = await post('/v1/notes', { text: 'forbidden' })
      expect(refusedV1.status).toBe(422)
      expect(refusedV1.body.errors).toEqual([{ in: 'body', pointer: '/text', detail: 'is forbidden' }])
      const refusedV2 = await post('/v2/notes', { content: 'forbidden' })
      expect(refusedV2.body.errors).toEqual([{ in: 'body', pointer: '/content', detail: 'is forbidden' }])
    })

    it('computed fields on list (one compute call per page), read, write answers and both versions; never stored', async () => {
      const first = await post('/v2/notes', { content: 'one two three' })
      expect(first.body.data).toMatchObject({ content: 'ONE TWO THREE', word_count: 3 })
      await post('/v1/notes', { text: 'four five' })
      calls.notes.length = 0
      const page = await call({ method: 'GET', url: '/v2/notes?sort=id' })
      expect(page.body.data.map((note: { word_count: number }) => note.word_count)).toEqual([3, 2])
      expect(calls.notes).toEqual([2])
      const v1 = await call({ method: 'GET', url: `/v1/notes/${first.body.data.id}` })
      expect(v1.body.data).toEqual(expect.objectContaining({ text: 'ONE TWO THREE', word_count: 3 }))
      const stored = await storage.storage.find(
        allTables.find((table) => table.name === 'notes')!,
        first.body.data.id,
      )
      expect(stored).not.toHaveProperty('word_count')
    })

    it('computed fields of included records, each resource computed once for the page', async () => {
      const id = (await post('/v2/orders', { customer: 'frank' })).body.data.id
      await post(`/v2/orders/${id}/lines`, { quantity: 2, price: 5 })
      await post(`/v2/orders/${id}/lines`, { quantity: 1, price: 3 })
      const read = await call({ method: 'GET', url: `/v2/orders/${id}?include=lines` })
      expect(read.body.data).toMatchObject({ line_count: 2 })
      expect(read.body.data.lines.map((line: { amount: number }) => line.amount)).toEqual([10, 3])
      const listed = await call({ method: 'GET', url: '/v2/orders?include=lines' })
      expect(listed.body.data[0]).toMatchObject({ line_count: 2, lines: [{ amount: 10 }, { amount: 3 }] })
    })

    it('computed fields can be neither filtered nor sorted by, and are read-only in the OpenAPI record', async () => {
      const filtered = await call({ method: 'GET', url: '/v2/notes?filter[word_count][eq]=2' })
      expect(filtered.status).toBe(400)
      expect(filtered.body.errors[0]).toMatchObject({ in: 'query', name: 'filter[word_count]' })
      const sorted = await call({ method: 'GET', url: '/v2/notes?sort=word_count' })
      expect(sorted.status).toBe(400)
      const written = await post('/v2/notes', { content: 'x', word_count: 9 })
      expect(written.status).toBe(400)
      expect(openapi.components.schemas.Note.properties.word_count).toMatchObject({ type: 'integer', readOnly: true })
      expect(openapi.components.schemas.Note.required).toContain('word_count')
    })

    describe('link routes run the hooks of the join (order-labels) as its own POST and DELETE do', () => {
      const table = (name: string) => allTables.find((each) => each.name === name)!
      let labels = 0
      /** An order and a label written without hooks, so that only the link's hooks write audits. */
      const orderAndLabel = async () => {
        const order = (await storage.storage.insert(table('orders'), { customer: 'linker' })).id as number
        const label = (await storage.storage.insert(table('labels'), { name: `label-${++labels}` })).id as number
        return { order, label }
      }
      const linkedLabels = async (order: number) =>
        (await call({ method: 'GET', url: `/v2/orders/${order}/labels` })).body.data.map(
          (label: { id: number }) => label.id,
        )

      it('POST /orders/{order_id}/labels: beforeCreate changes the body, afterCreate and afterCommit run', async () => {
        const { order, label } = await orderAndLabel()
        const headers = { authorization: `Bearer ${token('bob', 'a')}` }
        const linked = await post(`/v2/orders/${order}/labels`, { label_id: label, note: 'gift' }, headers)
        expect(linked.status, JSON.stringify(linked.body)).toBe(201)
        // With the join's computed fields, as its own POST answers.
        expect(linked.body.data).toMatchObject({ order_id: order, label_id: label, note: 'GIFT', note_length: 4 })
        const id = linked.body.data.id
        expect(await audits()).toEqual([
          { action: 'label_linked', record_id: id, actor: 'bob', detail: `${order}:${label}:GIFT` },
          { action: 'link_committed_create', record_id: id, actor: null, detail: null },
        ])
        // The same hooks as the join's own POST.
        const other = await orderAndLabel()
        const created = await post('/v2/order-labels', { order_id: other.order, label_id: other.label }, headers)
        expect(created.status).toBe(201)
        expect(created.body.data).toMatchObject({ note: 'linked' })
        expect((await audits()).slice(2).map((audit) => audit.action)).toEqual([
          'label_linked',
          'link_committed_create',
        ])
      })

      it('a problem from beforeCreate refuses the link; an afterCreate failure rolls it back with its audit', async () => {
        const { order, label } = await orderAndLabel()
        const refused = await post(`/v2/orders/${order}/labels`, { label_id: label, note: 'refuse' })
        expect(refused.status).toBe(422)
        expect(refused.body).toMatchObject({ code: 'label_refused' })
        const failed = await post(`/v2/orders/${order}/labels`, { label_id: label, note: 'fail-after' })
        expect(failed.status).toBe(500)
        expect(failed.body).toMatchObject({ code: 'hook_failed', detail: expect.stringContaining('rolled back') })
        expect(logged).toContainEqual(expect.objectContaining({ hook: 'order-labels.afterCreate' }))
        expect(await linkedLabels(order)).toEqual([])
        expect(await audits()).toEqual([])
      })

      it('DELETE /orders/{order_id}/labels/{label_id}: beforeDelete may refuse; afterDelete and afterCommit run', async () => {
        const { order, label } = await orderAndLabel()
        const id = (await post(`/v2/orders/${order}/labels`, { label_id: label })).body.data.id
        expect((await call({ method: 'DELETE', url: `/v2/orders/${order}/labels/${label}` })).status).toBe(204)
        expect((await audits()).slice(2)).toEqual([
          { action: 'label_unlinked', record_id: id, actor: null, detail: `${order}:${label}` },
          { action: 'link_committed_delete', record_id: id, actor: null, detail: null },
        ])
        expect(await linkedLabels(order)).toEqual([])

        await post(`/v2/orders/${order}/labels`, { label_id: label, note: 'keep' })
        const kept = await call({ method: 'DELETE', url: `/v2/orders/${order}/labels/${label}` })
        expect(kept.status).toBe(409)
        expect(kept.body).toMatchObject({ code: 'label_kept' })
        expect(await linkedLabels(order)).toEqual([label])
        expect((await audits()).filter((audit) => audit.action === 'label_unlinked')).toHaveLength(1)
      })
    })
  })
}
