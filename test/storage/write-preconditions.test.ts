import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PreconditionFailedError } from '../../runtime/storage/storage-errors.js'
import type { Row } from '../../runtime/contract/table-definition.js'
import { ordersTable, productsTable } from '../fixtures/shop-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Storage.update and Storage.delete with a RowPrecondition (the If-Match
 * check), on every database: the precondition sees the row as it stands, a
 * failing one throws PreconditionFailedError carrying that row and writes
 * nothing, and a missing row is not found before any precondition runs.
 */
describe.each(DIALECTS)('%s: write preconditions', (dialect) => {
  let test: TestStorage

  beforeAll(async () => {
    test = await openTestStorage(dialect)
    await test.storage.prepare()
  })
  afterAll(async () => {
    await test?.dispose()
  })

  it('updates only when the precondition holds for the current row', async () => {
    const { storage } = test
    const product = await storage.insert(productsTable, { title: 'Pen', price: 1, in_stock: true })
    const seen: Row[] = []
    const refuse = (current: Row): boolean => {
      seen.push(current)
      return false
    }
    const failure = await storage.update(productsTable, product.id as number, { price: 2 }, {}, refuse).catch((e) => e)
    expect(failure).toBeInstanceOf(PreconditionFailedError)
    expect((failure as PreconditionFailedError).current).toEqual(product)
    expect(seen).toEqual([product])
    expect(await storage.find(productsTable, product.id as number)).toEqual(product)
    const updated = await storage.update(productsTable, product.id as number, { price: 3 }, {}, () => true)
    expect(updated).toMatchObject({ id: product.id, price: 3 })
  })

  it('deletes only when the precondition holds, and finds no row before checking any', async () => {
    const { storage } = test
    const order = await storage.insert(ordersTable, { status: 'paid', placed_on: null })
    const id = order.id as number
    await expect(storage.delete(ordersTable, id, {}, () => false)).rejects.toBeInstanceOf(PreconditionFailedError)
    expect(await storage.find(ordersTable, id)).toEqual(order)
    expect(await storage.delete(ordersTable, id, {}, (current) => current.status === 'paid')).toBe(true)
    const never = () => {
      throw new Error('checked a row that does not exist')
    }
    expect(await storage.delete(ordersTable, id, {}, never)).toBe(false)
    expect(await storage.update(ordersTable, id, { status: 'shipped' }, {}, never)).toBeUndefined()
  })
})
