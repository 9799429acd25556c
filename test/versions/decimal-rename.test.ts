import { describe, expect, it } from 'vitest'
import { serveManifestApi } from '../migrate/load-manifest-api.js'
import { DIALECTS } from '../support/test-storage.js'

/**
 * A `rename_field` of a decimal field across versions (issue 17, "Types"):
 * v1's `price` is v2's `amount`, one column; each version reads and writes
 * it under its own name, exactly (17 integer digits, past 2^53), and filters
 * and sorts it by that name.
 */
const MANIFEST = `restmint: 1
service: { title: Shop }
versions:
  v1: {}
  v2:
    changes:
      - rename_field: { resource: products, from: price, to: amount }
        why: amount is what the invoices call it
resources:
  products:
    fields:
      name: { type: string, required: true }
      amount: { type: decimal, precision: 19, scale: 2, required: true }
`

for (const dialect of DIALECTS) {
  describe(`${dialect}: renaming a decimal field between versions`, () => {
    const call = serveManifestApi(MANIFEST, dialect)

    it('writes under one name and reads under the other, exactly', async () => {
      const old = await call({
        method: 'POST',
        url: '/v1/products',
        payload: { name: 'A', price: '12345678901234567.8' },
      })
      expect(old.status, JSON.stringify(old.body)).toBe(201)
      expect(old.body.data).toMatchObject({ price: '12345678901234567.80' })
      expect(old.body.data).not.toHaveProperty('amount')
      const fresh = await call({ method: 'POST', url: '/v2/products', payload: { name: 'B', amount: '-0.5' } })
      expect(fresh.status, JSON.stringify(fresh.body)).toBe(201)

      const v2 = await call({ method: 'GET', url: `/v2/products/${old.body.data.id}` })
      expect(v2.body.data).toMatchObject({ amount: '12345678901234567.80' })
      const v1 = await call({ method: 'GET', url: `/v1/products/${fresh.body.data.id}` })
      expect(v1.body.data).toMatchObject({ price: '-0.50' })

      const filtered = await call({
        method: 'GET',
        url: '/v1/products?filter[price][gt]=12345678901234567.79&sort=-price',
      })
      expect(filtered.body.data.map((row: { name: string }) => row.name)).toEqual(['A'])
      const sorted = await call({ method: 'GET', url: '/v2/products?sort=amount' })
      expect(sorted.body.data.map((row: { amount: string }) => row.amount)).toEqual(['-0.50', '12345678901234567.80'])
      expect((await call({ method: 'GET', url: '/v2/products?filter[price][eq]=1' })).status).toBe(400)
    })
  })
}
