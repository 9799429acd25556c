/**
 * The example API's own code, named by resources.yaml's `app:`: hooks and
 * computed fields, typed by the generated `Api` (a misspelt field fails tsc).
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
      afterCreate: async ({ record, caller, db }) => {
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
})
