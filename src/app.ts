/**
 * The example API's own code, named by resources.yaml's `app:`: hooks,
 * computed fields and operations, typed by the generated `Api` (a misspelt
 * field fails tsc).
 */
import { defineApp, problem } from 'restmint/runtime'
import type { Api } from '../generated/server.js'

export default defineApp<Api>({
  hooks: {
    items: {
      // Before the write: the line's total from the product's price; an item of a product out of stock is refused.
      beforeCreate: async ({ body, db }) => {
        if (body.product_id === null || body.product_id === undefined) return { ...body, line_total: 0 }
        const product = await db.products.read(body.product_id)
        if (product !== null && !product.in_stock) {
          throw problem(409, 'out_of_stock', `Product ${product.id} is out of stock.`, {
            pointers: { '/product_id': 'is out of stock' },
          })
        }
        return { ...body, line_total: (product?.price ?? 0) * body.quantity }
      },
      // In the write's transaction: the order's total from its items, and an audit row; a failure undoes all three.
      // The order is locked first, so items created at once add up one after the other rather than overwrite.
      afterCreate: async ({ record, caller, db }) => {
        await db.orders.read(record.order_id, { forUpdate: true })
        const items = await db.items.list({ where: { order_id: record.order_id }, limit: 1000 })
        const total = items.reduce((sum, item) => sum + item.line_total, 0)
        await db.orders.update(record.order_id, { total })
        await db.audits.create({ action: 'created', resource: 'items', record_id: record.id, actor: caller.subject })
      },
    },
  },
  compute: {
    posts: async (posts) =>
      posts.map((post) => ({ word_count: post.content?.split(/\s+/).filter(Boolean).length ?? 0 })),
  },
  operations: {
    // POST /v{n}/orders/{order_id}/cancellations: the route has checked the body and the access rule (the order's
    // owner, or orders:admin) and found the order (404 otherwise); the answer is the order, as the request's version names it.
    // It runs in one transaction (a failure keeps nothing), and locks the order it checks, so of two cancellations
    // at once the second sees the first's.
    'orders.cancellations.create': async ({ params, body, caller, db }) => {
      const order = await db.orders.read(params.order_id, { forUpdate: true })
      if (order?.status === 'shipped') {
        throw problem(409, 'order_shipped', `Order ${params.order_id} has shipped; it can no longer be cancelled.`)
      }
      if (order?.cancelled_at) throw problem(409, 'order_cancelled', `Order ${params.order_id} is already cancelled.`)
      const cancelled = await db.orders.update(params.order_id, { cancelled_at: new Date().toISOString() })
      await db.audits.create({
        action: `cancelled: ${body.reason}`,
        resource: 'orders',
        record_id: params.order_id,
        actor: caller.subject,
      })
      return cancelled!
    },
    // GET /v{n}/reports/sales-by-month?year=2026: the totals of the year's orders (but cancelled ones), by month.
    'reports.sales-by-month.list': async ({ query, db }) => {
      const totals = new Map<string, number>()
      for (const order of await db.orders.list({ limit: 10_000 })) {
        if (order.cancelled_at !== null || !order.placed_on?.startsWith(`${query.year}-`)) continue
        const month = order.placed_on.slice(0, 7)
        totals.set(month, (totals.get(month) ?? 0) + order.total)
      }
      return [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([month, total]) => ({ month, total }))
    },
  },
})
