import { describe, expect, it } from 'vitest'
import { createAppDb, type NewestResource } from '../../runtime/app/create-app-db.js'
import type { ResourceDb, ResourceShape } from '../../runtime/app/define-app.js'
import type { Row, TableDefinition } from '../../runtime/contract/table-definition.js'
import type { VersionTranslation } from '../../runtime/contract/version-translation.js'
import type { Storage } from '../../runtime/storage/storage.js'

// The newest version names every field as the storage does: what is tested here is the object `db` is.
const sameNames = {
  rowToVersion: (row: Row) => ({ ...row }),
  bodyToStorage: (body: Row) => body,
  columnOf: (field: string) => field,
  view: { columns: [] },
} as unknown as VersionTranslation
const resources = new Map<string, NewestResource>(
  ['orders', 'audits'].map((name) => [name, { table: { name } as TableDefinition, translation: sameNames }]),
)
/** A storage whose inserts answer which storage and table they reached. */
const storageNamed = (name: string) =>
  ({
    insert: async (table: TableDefinition, values: Row) => ({ id: 1, storage: name, table: table.name, ...values }),
  }) as unknown as Storage

/** `db` over that storage, typed with the two resources. */
const dbOver = (name: string) =>
  createAppDb(storageNamed(name), resources) as unknown as Record<'orders' | 'audits', ResourceDb<ResourceShape>>

describe('createAppDb', () => {
  it('reads as a plain object of every resource: keys, in, a spread copy', async () => {
    const db = dbOver('one')
    expect(Object.keys(db)).toEqual(['orders', 'audits'])
    expect('audits' in db).toBe(true)
    expect('customers' in db).toBe(false)
    const copy = { ...db, extra: true }
    expect(await copy.audits.create({ action: 'x' })).toEqual({ id: 1, storage: 'one', table: 'audits', action: 'x' })
    expect(String(db)).toBe('[object Object]')
  })

  it('makes each resource once, over its own storage', async () => {
    const one = dbOver('one')
    const two = dbOver('two')
    expect(one.orders).toBe(one.orders)
    expect(one.orders).not.toBe(two.orders)
    expect(await two.orders.create({})).toMatchObject({ storage: 'two', table: 'orders' })
    const { create } = one.orders
    expect(await create({})).toMatchObject({ storage: 'one' })
  })

  it('has no resource it was not given, and cannot be changed', () => {
    const db = dbOver('one') as unknown as Record<string, unknown>
    expect(db.customers).toBeUndefined()
    expect(() => {
      db.orders = {}
    }).toThrow(TypeError)
    expect(() => delete db.orders).toThrow(TypeError)
  })
})
