import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { Row, TableDefinition } from '../../runtime/contract/table-definition.js'
import { createStorage } from '../../runtime/storage/create-storage.js'
import { describeIndexedTextLimit } from '../../runtime/storage/indexed-text-limits.js'
import { DATE_REASON, DATETIME_REASONS } from '../../runtime/storage/normalize-datetime.js'
import { classifyPostgresError } from '../../runtime/storage/postgres/postgres-errors.js'
import type { Storage } from '../../runtime/storage/storage.js'
import { VALUE_REASONS } from '../../runtime/storage/value-codec.js'
import {
  InvalidValueError,
  MissingReferenceError,
  RowReferencedError,
  SchemaMismatchError,
  UniqueViolationError,
} from '../../runtime/storage/storage-errors.js'
import {
  column,
  createTestDatabases,
  DIALECTS,
  type Dialect,
  defineTables,
  foreignKey,
  optional,
  POSTGRES_URL,
  runRawSql,
  table,
  type TestDatabase,
} from './storage-fixtures.js'

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

// ---------------------------------------------------------------- fixtures

const shop = defineTables([
  {
    name: 'authors',
    columns: [
      column('name', 'string'),
      optional('email', 'string', { unique: true }),
      column('active', 'boolean', { default: true }),
      optional('born_on', 'date'),
      optional('last_seen_at', 'datetime'),
      optional('rating', 'number'),
      column('visits', 'integer', { default: 0 }),
    ],
  },
  { name: 'products', columns: [column('title', 'string')] },
  {
    name: 'orders',
    columns: [column('status', 'string', { default: 'pending' }), foreignKey('author_id', 'authors', 'restrict', true)],
  },
  {
    name: 'items',
    columns: [
      foreignKey('order_id', 'orders', 'cascade'),
      foreignKey('product_id', 'products', 'restrict', true),
      column('quantity', 'integer'),
      optional('note', 'string'),
    ],
  },
  { name: 'adjustments', columns: [foreignKey('item_id', 'items', 'cascade'), column('amount', 'number')] },
  { name: 'returns', columns: [foreignKey('item_id', 'items', 'restrict'), optional('reason', 'string')] },
])

const authors = table(shop, 'authors')
const products = table(shop, 'products')
const orders = table(shop, 'orders')
const items = table(shop, 'items')
const adjustments = table(shop, 'adjustments')
const returns = table(shop, 'returns')

// ---------------------------------------------------------------- databases

const databases = createTestDatabases()
const sqliteDirectory = databases.sqliteDirectory
const opened = databases.opened
const newDatabase = (dialect: Dialect) => databases.newDatabase(dialect)

/** A storage on the shop tables, empty: one per dialect, emptied for each test. */
async function openShop(dialect: Dialect): Promise<Storage> {
  return (await databases.emptyStorage(dialect, shop)).storage
}

afterEach(() => databases.closeOpened())
afterAll(() => databases.dropAll())

const page = { rowFilter: {}, limit: 100, offset: 0 }

async function seedOrder(storage: Storage, itemCount: number): Promise<{ order: Row; items: Row[] }> {
  const order = await storage.insert(orders, {})
  const created: Row[] = []
  for (let index = 0; index < itemCount; index++) {
    created.push(await storage.insert(items, { order_id: order.id!, quantity: index + 1 }))
  }
  return { order, items: created }
}

async function countAll(storage: Storage, definition: TableDefinition): Promise<number | null> {
  return (await storage.list(definition, page)).total
}

/** The SchemaMismatchError lines prepare() throws for `tables` on `database`. */
async function mismatches(database: TestDatabase, tables: readonly TableDefinition[]): Promise<readonly string[]> {
  const error = await database
    .open(tables)
    .prepare()
    .then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
  expect(error).toBeInstanceOf(SchemaMismatchError)
  return (error as SchemaMismatchError).differences
}

/** Expects `operation` to reject with InvalidValueError for `table`.`column` and `reason`. */
async function expectInvalid(operation: Promise<unknown>, table: string, column: string, reason: string) {
  const error = await operation.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(InvalidValueError)
  expect(error).toMatchObject({ table, column, reason, message: `${table}.${column} ${reason}` })
}

/** ASCII text that barely compresses, so PostgreSQL's index entries cannot shrink it. */
function incompressible(length: number): string {
  return randomBytes(length).toString('base64').slice(0, length)
}

// ---------------------------------------------------------------- dialect-independent

describe('createStorage', () => {
  it('rejects an unsupported URL, naming the accepted forms and hiding the password', () => {
    expect(() => createStorage('mysql://app:secret@localhost/shop', shop)).toThrow(
      /Unsupported database URL "mysql:\/\/app:\*\*\*@localhost\/shop": use sqlite:.*sqlite::memory:.*postgres:\/\//,
    )
    expect(() => createStorage('sqlite:', shop)).toThrow(/Unsupported database URL/)
  })

  it('creates the parent directory of an SQLite file', async () => {
    const file = join(sqliteDirectory, 'nested', 'deeper', 'shop.db')
    const storage = createStorage(`sqlite:${file}`, shop)
    opened.push(storage)
    await storage.prepare()
    expect(existsSync(file)).toBe(true)
  })

  it('opens an in-memory SQLite database', async () => {
    const storage = createStorage('sqlite::memory:', shop)
    opened.push(storage)
    await storage.prepare()
    expect(await storage.insert(authors, { name: 'Ada' })).toMatchObject({ id: 1, name: 'Ada' })
  })
})

// ---------------------------------------------------------------- both dialects

for (const dialect of DIALECTS) {
  describe(`storage on ${dialect}`, () => {
    describe('prepare', () => {
      it('creates every table, referenced tables first', async () => {
        const storage = newDatabase(dialect).open(shop)
        await storage.prepare()
        for (const definition of shop)
          expect(await storage.list(definition, page)).toEqual({ rows: [], total: 0, count: 'exact' })
      })

      it('accepts an existing matching database and keeps its data', async () => {
        const database = newDatabase(dialect)
        const first = database.open(shop)
        await first.prepare()
        const ada = await first.insert(authors, { name: 'Ada', email: 'ada@example.com' })
        await seedOrder(first, 2)
        await first.close()

        const second = database.open(shop)
        await second.prepare()
        await second.prepare()
        expect(await second.find(authors, ada.id as number)).toEqual(ada)
        expect(await countAll(second, items)).toBe(2)
        const grace = await second.insert(authors, { name: 'Grace' })
        expect(grace.id).toBe((ada.id as number) + 1)
      })

      it('reports every difference of an existing table and changes nothing', async () => {
        const database = newDatabase(dialect)
        const before = defineTables([
          {
            name: 'authors',
            columns: [
              column('name', 'string'),
              optional('nickname', 'string'),
              optional('rating', 'string'),
              column('email', 'string'),
            ],
          },
        ])
        const existing = database.open(before)
        await existing.prepare()
        await existing.insert(table(before, 'authors'), { name: 'Ada', email: 'ada@example.com' })
        await existing.close()

        const after = defineTables([
          {
            name: 'authors',
            columns: [
              column('name', 'string'),
              optional('email', 'string'),
              optional('rating', 'number'),
              optional('bio', 'string'),
            ],
          },
          { name: 'tags', columns: [column('label', 'string')] },
        ])
        const mismatched = database.open(after)
        const error = await mismatched.prepare().then(
          () => undefined,
          (thrown: unknown) => thrown,
        )
        expect(error).toBeInstanceOf(SchemaMismatchError)
        const stored = dialect === 'sqlite' ? 'real' : 'double precision'
        expect((error as SchemaMismatchError).differences).toEqual([
          'table "authors": column "email" is NOT NULL in the database, but the manifest makes it nullable',
          `table "authors": column "rating" has type text in the database, but the manifest declares rating: number (stored as ${stored})`,
          'table "authors": column "bio" is missing (manifest declares bio: string)',
          'table "authors": column "nickname" exists in the database but not in the manifest',
        ])
        expect((error as Error).message).toContain('refusing to start (nothing was changed)')

        // Nothing was created or altered: the old definition still matches and "tags" does not exist.
        const again = database.open(before)
        await again.prepare()
        expect(await countAll(again, table(before, 'authors'))).toBe(1)
        await expect(database.open(after).list(table(after, 'tags'), page)).rejects.toThrow()
      })

      it.runIf(dialect === 'postgres')('prepares while other clients create and drop schemas', async () => {
        // Another test run (or tenant) dropping its schema must not break reading ours.
        const client = new pg.Client(POSTGRES_URL)
        await client.connect()
        let stop = false
        const churn = (async () => {
          for (let index = 0; !stop; index++) {
            const name = `restmint_churn_${process.pid}_${index}`
            await client.query(`create schema "${name}"`)
            await client.query(`create table "${name}".t (id int)`)
            await client.query(`drop schema "${name}" cascade`)
          }
        })()
        try {
          for (let index = 0; index < 20; index++) await newDatabase(dialect).open(shop).prepare()
        } finally {
          stop = true
          await churn
          await client.end()
        }
      })

      it('reports a column that became required', async () => {
        const database = newDatabase(dialect)
        const before = defineTables([{ name: 'notes', columns: [optional('body', 'string')] }])
        const after = defineTables([{ name: 'notes', columns: [column('body', 'string')] }])
        await database.open(before).prepare()
        await expect(database.open(after).prepare()).rejects.toThrow(
          'table "notes": column "body" is nullable in the database, but the manifest makes it NOT NULL',
        )
      })

      it('reports missing and undeclared UNIQUE constraints and foreign keys, other targets and ON DELETE actions', async () => {
        const database = newDatabase(dialect)
        const define = (
          order: 'restrict' | 'cascade',
          itemColumns: Parameters<typeof defineTables>[0][number]['columns'],
        ) =>
          defineTables([
            { name: 'orders', columns: [column('status', 'string')] },
            { name: 'carts', columns: [column('label', 'string')] },
            { name: 'items', columns: [foreignKey('order_id', 'orders', order), ...itemColumns] },
          ])
        const before = define('restrict', [
          column('cart_id', 'integer'),
          foreignKey('coupon_id', 'carts', 'restrict', true),
          foreignKey('parent_id', 'orders', 'cascade'),
          column('code', 'string'),
          column('sku', 'string', { unique: true }),
        ])
        const after = define('cascade', [
          foreignKey('cart_id', 'carts', 'restrict'),
          optional('coupon_id', 'integer'),
          foreignKey('parent_id', 'carts', 'cascade'),
          column('code', 'string', { unique: true }),
          column('sku', 'string'),
        ])
        const existing = database.open(before)
        await existing.prepare()
        const order = await existing.insert(table(before, 'orders'), { status: 'open' })
        const cart = await existing.insert(table(before, 'carts'), { label: 'c' })
        const values = { order_id: order.id!, cart_id: cart.id!, parent_id: order.id!, code: 'a', sku: 'b' }
        await existing.insert(table(before, 'items'), values)
        await existing.close()

        expect(await mismatches(database, after)).toEqual([
          'table "items": column "order_id" deletes cascade in the manifest but restrict in the database; ' +
            'recreate the foreign key with ON DELETE CASCADE, or set on_delete: restrict in the manifest',
          'table "items": column "cart_id" references "carts" in the manifest, but the database has no foreign key on it; ' +
            'add one (REFERENCES "carts" ("id") ON DELETE RESTRICT), or remove the relation from the manifest',
          'table "items": column "coupon_id" has a foreign key to "carts" in the database, ' +
            'but the manifest declares no relation on it; drop the foreign key, or declare the relation',
          'table "items": column "parent_id" references "carts" in the manifest but "orders" in the database; ' +
            'recreate the foreign key as REFERENCES "carts" ("id"), or change the manifest',
          'table "items": column "code" is unique in the manifest, but the database has no UNIQUE constraint on it; ' +
            'add one, or remove unique: true from the manifest',
          'table "items": column "sku" is unique in the database, but not in the manifest; ' +
            'drop the UNIQUE constraint or index, or declare the field unique: true',
        ])

        // Nothing was altered: the old definition still matches, with its data.
        const again = database.open(before)
        await again.prepare()
        expect((await again.list(table(before, 'items'), page)).rows).toMatchObject([values])
      })

      it('reports UNIQUE indexes over several columns, an expression or part of the rows', async () => {
        const database = newDatabase(dialect)
        await database.open(shop).prepare()
        await databases.closeOpened()
        await runRawSql(database, [
          'create unique index items_pair_key on items (order_id, quantity)',
          'create unique index items_partial_key on items (note) where note is not null',
          'create unique index items_lower_key on items (lower(note))',
        ])
        expect(await mismatches(database, shop)).toEqual([
          'table "items": the database has a UNIQUE index "items_lower_key" on (an expression), ' +
            'which the manifest cannot declare; drop it',
          'table "items": the database has a UNIQUE index "items_pair_key" on ("order_id", "quantity"), ' +
            'which the manifest cannot declare; drop it',
          'table "items": the database has a partial UNIQUE index "items_partial_key" on ("note"), ' +
            'which the manifest cannot declare; drop it',
        ])
      })

      it("holds a soft-deleting table's composite unique among live rows: a partial index, a full one reported", async () => {
        const softShop = shop.map((definition) =>
          definition.name === 'items'
            ? {
                ...definition,
                softDelete: true as const,
                uniques: [['order_id', 'quantity']],
                columns: [...definition.columns, optional('deleted_at', 'datetime')],
              }
            : definition,
        )
        const database = newDatabase(dialect)
        await database.open(softShop).prepare()
        await databases.closeOpened()
        // prepare() accepts what it made: the unique, partial.
        await database.open(softShop).prepare()
        await databases.closeOpened()
        await runRawSql(database, [
          'drop index items_order_id__quantity_key',
          'create unique index items_order_id__quantity_key on items (order_id, quantity)',
        ])
        expect(await mismatches(database, softShop)).toEqual([
          'table "items": the manifest declares unique: [order_id, quantity], but the database has no ' +
            'partial UNIQUE index (WHERE deleted_at IS NULL) on (order_id, quantity); add one, or remove it from unique:',
          'table "items": the database has a UNIQUE index "items_order_id__quantity_key" on ("order_id", "quantity"), ' +
            'which the manifest cannot declare; drop it',
        ])
      })

      it('accepts constraints made by hand: any unique index, NO ACTION for restrict, unnamed keys', async () => {
        const database = newDatabase(dialect)
        const [id, integer, datetime] =
          dialect === 'sqlite'
            ? ['integer not null primary key autoincrement', 'integer', 'text']
            : ['bigint generated by default as identity primary key', 'bigint', 'timestamptz']
        // `references orders` names no column (SQLite then reports none) and no ON DELETE (NO ACTION).
        await runRawSql(database, [
          `create table orders (id ${id}, status text not null,
            created_at ${datetime} not null, updated_at ${datetime} not null)`,
          `create table items (id ${id}, order_id ${integer} not null references orders,
            code text not null, created_at ${datetime} not null, updated_at ${datetime} not null)`,
          'create unique index items_code_unique on items (code)',
        ])
        const handMade = defineTables([
          { name: 'orders', columns: [column('status', 'string')] },
          {
            name: 'items',
            columns: [foreignKey('order_id', 'orders', 'restrict'), column('code', 'string', { unique: true })],
          },
        ])
        const storage = database.open(handMade)
        await storage.prepare()
        const order = await storage.insert(table(handMade, 'orders'), { status: 'open' })
        await storage.insert(table(handMade, 'items'), { order_id: order.id!, code: 'a' })
        // The index's name is not the storage's own: the column comes from what the driver says.
        await expect(storage.insert(table(handMade, 'items'), { order_id: order.id!, code: 'a' })).rejects.toThrow(
          new UniqueViolationError('items', 'code'),
        )
        await expect(storage.insert(table(handMade, 'items'), { order_id: 999, code: 'b' })).rejects.toThrow(
          new MissingReferenceError('items', 'order_id', 'orders'),
        )
        await expect(storage.delete(table(handMade, 'orders'), order.id as number)).rejects.toThrow(RowReferencedError)
      })
    })

    describe('insert and find', () => {
      it('assigns ids and timestamps, applies defaults and stores null for omitted optional fields', async () => {
        const storage = await openShop(dialect)
        const ada = await storage.insert(authors, { name: 'Ada' })
        expect(ada).toEqual({
          id: 1,
          name: 'Ada',
          email: null,
          active: true,
          born_on: null,
          last_seen_at: null,
          rating: null,
          visits: 0,
          created_at: expect.stringMatching(ISO_UTC),
          updated_at: ada.created_at,
        })
        expect(Object.keys(ada)).toEqual(authors.columns.map((definition) => definition.name))
        expect((await storage.insert(authors, { name: 'Grace' })).id).toBe(2)
        expect(await storage.find(authors, 1)).toEqual(ada)
        expect(await storage.find(authors, 99)).toBeUndefined()
      })

      it('round-trips booleans, dates, datetimes and numbers identically', async () => {
        const storage = await openShop(dialect)
        const stored = await storage.insert(authors, {
          name: 'Ada',
          active: false,
          born_on: '1990-02-28',
          last_seen_at: '2026-01-01T10:00:00+02:00',
          rating: 4.25,
          visits: 12,
        })
        const expected = {
          active: false,
          born_on: '1990-02-28',
          last_seen_at: '2026-01-01T08:00:00.000Z',
          rating: 4.25,
          visits: 12,
        }
        expect(stored).toMatchObject(expected)
        expect(await storage.find(authors, stored.id as number)).toMatchObject(expected)

        const updated = await storage.update(authors, stored.id as number, {
          active: true,
          last_seen_at: '2026-11-21T10:00:00Z',
          born_on: null,
        })
        expect(updated).toMatchObject({ active: true, last_seen_at: '2026-11-21T10:00:00.000Z', born_on: null })
        expect(typeof updated?.id).toBe('number')
      })

      it('finds a row only inside its rowFilter', async () => {
        const storage = await openShop(dialect)
        const first = await seedOrder(storage, 1)
        const second = await seedOrder(storage, 0)
        const item = first.items[0]!
        expect(await storage.find(items, item.id as number, { order_id: first.order.id as number })).toEqual(item)
        expect(await storage.find(items, item.id as number, { order_id: second.order.id as number })).toBeUndefined()
      })
    })

    describe('list', () => {
      it('pages by id with limit and offset and counts the total', async () => {
        const storage = await openShop(dialect)
        for (const name of ['a', 'b', 'c', 'd', 'e']) await storage.insert(authors, { name })
        const middle = await storage.list(authors, { rowFilter: {}, limit: 2, offset: 1 })
        expect(middle.total).toBe(5)
        expect(middle.rows.map((row) => row.name)).toEqual(['b', 'c'])
        expect(await storage.list(authors, { rowFilter: {}, limit: 2, offset: 10 })).toEqual({
          rows: [],
          total: 5,
          count: 'exact',
        })
      })

      it('honours rowFilter conditions, each rowFilter shape with its own query', async () => {
        const storage = await openShop(dialect)
        const first = await seedOrder(storage, 3)
        await seedOrder(storage, 2)
        const filterColumns = await storage.list(items, {
          rowFilter: { order_id: first.order.id as number },
          limit: 2,
          offset: 1,
        })
        expect(filterColumns.total).toBe(3)
        expect(filterColumns.rows).toEqual(first.items.slice(1))
        expect((await storage.list(items, page)).total).toBe(5)
        expect((await storage.list(items, { rowFilter: { order_id: 999 }, limit: 10, offset: 0 })).total).toBe(0)
        await storage.insert(authors, { name: 'off', active: false })
        await storage.insert(authors, { name: 'on' })
        const active = await storage.list(authors, { rowFilter: { active: true }, limit: 10, offset: 0 })
        expect(active.rows.map((row) => row.name)).toEqual(['on'])
      })
    })

    describe('update', () => {
      it('changes only the given columns and stamps updated_at', async () => {
        const storage = await openShop(dialect)
        const {
          order,
          items: [item],
        } = await seedOrder(storage, 1)
        await storage.update(items, item!.id as number, { note: 'fragile' })
        await new Promise((resolve) => setTimeout(resolve, 5))
        const updated = await storage.update(
          items,
          item!.id as number,
          { quantity: 7 },
          { order_id: order.id as number },
        )
        expect(updated).toMatchObject({ quantity: 7, note: 'fragile', created_at: item!.created_at })
        expect(updated!.updated_at! > item!.created_at!).toBe(true)
        expect(await storage.update(items, item!.id as number, { note: null })).toMatchObject({
          note: null,
          quantity: 7,
        })
      })

      it('returns undefined for an unknown id or a row outside the rowFilter', async () => {
        const storage = await openShop(dialect)
        const {
          items: [item],
        } = await seedOrder(storage, 1)
        expect(await storage.update(items, 999, { quantity: 2 })).toBeUndefined()
        expect(await storage.update(items, item!.id as number, { quantity: 2 }, { order_id: 999 })).toBeUndefined()
        expect(await storage.find(items, item!.id as number)).toEqual(item)
      })
    })

    describe('delete', () => {
      it('deletes a row once', async () => {
        const storage = await openShop(dialect)
        const ada = await storage.insert(authors, { name: 'Ada' })
        expect(await storage.delete(authors, ada.id as number)).toBe(true)
        expect(await storage.find(authors, ada.id as number)).toBeUndefined()
        expect(await storage.delete(authors, ada.id as number)).toBe(false)
      })

      it('reports one deletion when deletes of one row race, cascading once', async () => {
        const storage = await openShop(dialect)
        const { order } = await seedOrder(storage, 2)
        const deleted = await Promise.all(Array.from({ length: 10 }, () => storage.delete(orders, order.id as number)))
        expect(deleted.filter((result) => result)).toHaveLength(1)
        expect(await countAll(storage, items)).toBe(0)
      })

      it('does not delete a row outside the rowFilter', async () => {
        const storage = await openShop(dialect)
        const {
          items: [item],
        } = await seedOrder(storage, 1)
        expect(await storage.delete(items, item!.id as number, { order_id: 999 })).toBe(false)
        expect(await storage.find(items, item!.id as number)).toEqual(item)
      })

      it('refuses while restrict references point at the row, deleting nothing', async () => {
        const storage = await openShop(dialect)
        const ada = await storage.insert(authors, { name: 'Ada' })
        await storage.insert(orders, { author_id: ada.id! })
        await storage.insert(orders, { author_id: ada.id! })
        const error = await storage.delete(authors, ada.id as number).catch((thrown: unknown) => thrown)
        expect(error).toBeInstanceOf(RowReferencedError)
        expect(error).toMatchObject({ table: 'authors', referencingResource: 'orders', count: 2 })
        expect(await storage.find(authors, ada.id as number)).toEqual(ada)
        expect(await countAll(storage, orders)).toBe(2)
      })

      it('cascades through every level in the same transaction', async () => {
        const storage = await openShop(dialect)
        const doomed = await seedOrder(storage, 2)
        const kept = await seedOrder(storage, 1)
        for (const item of [...doomed.items, ...kept.items]) {
          await storage.insert(adjustments, { item_id: item.id!, amount: -1.5 })
        }
        expect(await storage.delete(orders, doomed.order.id as number)).toBe(true)
        expect((await storage.list(items, page)).rows).toEqual(kept.items)
        const remaining = await storage.list(adjustments, page)
        expect(remaining.rows.map((row) => row.item_id)).toEqual([kept.items[0]!.id])
      })

      it('aborts the whole cascade when a restrict reference points at a cascaded row', async () => {
        const storage = await openShop(dialect)
        const { order, items: orderItems } = await seedOrder(storage, 2)
        await storage.insert(adjustments, { item_id: orderItems[0]!.id!, amount: 2 })
        await storage.insert(returns, { item_id: orderItems[1]!.id!, reason: 'broken' })
        const error = await storage.delete(orders, order.id as number).catch((thrown: unknown) => thrown)
        expect(error).toBeInstanceOf(RowReferencedError)
        expect(error).toMatchObject({ table: 'items', referencingResource: 'returns', count: 1 })
        expect(await storage.find(orders, order.id as number)).toEqual(order)
        expect(await countAll(storage, items)).toBe(2)
        expect(await countAll(storage, adjustments)).toBe(1)
      })

      it('keeps statements issued during a failing delete out of its transaction', async () => {
        const storage = await openShop(dialect)
        const { order, items: orderItems } = await seedOrder(storage, 1)
        await storage.insert(returns, { item_id: orderItems[0]!.id! })
        const [deleted, inserted] = await Promise.allSettled([
          storage.delete(orders, order.id as number),
          storage.insert(authors, { name: 'concurrent' }),
        ])
        expect(deleted.status).toBe('rejected')
        expect(inserted.status).toBe('fulfilled')
        expect(await countAll(storage, authors)).toBe(1)
      })
    })

    describe('constraint failures', () => {
      it('reports a duplicate unique value on insert and update, naming the column', async () => {
        const storage = await openShop(dialect)
        await storage.insert(authors, { name: 'Ada', email: 'ada@example.com' })
        const grace = await storage.insert(authors, { name: 'Grace', email: 'grace@example.com' })
        const inserting = await storage
          .insert(authors, { name: 'Impostor', email: 'ada@example.com' })
          .catch((thrown: unknown) => thrown)
        expect(inserting).toBeInstanceOf(UniqueViolationError)
        expect(inserting).toMatchObject({ table: 'authors', column: 'email' })
        await expect(storage.update(authors, grace.id as number, { email: 'ada@example.com' })).rejects.toThrow(
          new UniqueViolationError('authors', 'email'),
        )
        expect(await countAll(storage, authors)).toBe(2)
      })

      it('reports a foreign key to a missing row, naming the exact column', async () => {
        const storage = await openShop(dialect)
        const {
          order,
          items: [item],
        } = await seedOrder(storage, 1)
        const product = await storage.insert(products, { title: 'Lamp' })

        const missingOrder = await storage
          .insert(items, { order_id: 999, product_id: product.id!, quantity: 1 })
          .catch((thrown: unknown) => thrown)
        expect(missingOrder).toBeInstanceOf(MissingReferenceError)
        expect(missingOrder).toMatchObject({ table: 'items', column: 'order_id', referencedTable: 'orders' })

        await expect(storage.insert(items, { order_id: order.id!, product_id: 999, quantity: 1 })).rejects.toThrow(
          new MissingReferenceError('items', 'product_id', 'products'),
        )
        await expect(storage.update(items, item!.id as number, { product_id: 999 })).rejects.toThrow(
          new MissingReferenceError('items', 'product_id', 'products'),
        )
        expect(await countAll(storage, items)).toBe(1)
      })
    })

    describe('invalid values', () => {
      it('refuses NUL characters in text on insert, update and filters, naming the column', async () => {
        const storage = await openShop(dialect)
        const ada = await storage.insert(authors, { name: 'Ada' })
        await expectInvalid(storage.insert(authors, { name: 'A\u0000da' }), 'authors', 'name', VALUE_REASONS.nul)
        await expectInvalid(
          storage.update(authors, ada.id as number, { email: '\u0000' }),
          'authors',
          'email',
          VALUE_REASONS.nul,
        )
        for (const filter of [
          { column: 'name', operator: 'eq', value: 'Ada\u0000' },
          { column: 'name', operator: 'contains', value: '\u0000' },
          { column: 'name', operator: 'in', value: ['Ada', 'x\u0000'] },
        ] as const) {
          await expectInvalid(
            storage.list(authors, { ...page, filters: [filter] }),
            'authors',
            'name',
            VALUE_REASONS.nul,
          )
        }
        expect(await storage.list(authors, page)).toEqual({ rows: [ada], total: 1, count: 'exact' })
      })

      it('refuses unpaired surrogates in text anywhere, naming the column, and stores surrogate pairs', async () => {
        const storage = await openShop(dialect)
        const emoji = await storage.insert(authors, { name: 'Ada \ud83d\ude00' })
        expect((await storage.find(authors, emoji.id as number))?.name).toBe('Ada \ud83d\ude00')
        for (const lone of ['\ud800', 'x\udfff', '\ude00\ud83d', 'Ada \ud83d']) {
          const { surrogate } = VALUE_REASONS
          await expectInvalid(storage.insert(authors, { name: lone }), 'authors', 'name', surrogate)
          await expectInvalid(
            storage.update(authors, emoji.id as number, { email: lone }),
            'authors',
            'email',
            surrogate,
          )
          for (const filter of [
            { column: 'name', operator: 'eq', value: lone },
            { column: 'name', operator: 'contains', value: lone },
            { column: 'name', operator: 'starts_with', value: lone },
            { column: 'name', operator: 'in', value: ['Ada', lone] },
          ] as const) {
            await expectInvalid(storage.list(authors, { ...page, filters: [filter] }), 'authors', 'name', surrogate)
          }
          const sort = [{ column: 'name', direction: 'asc' }] as const
          await expectInvalid(
            storage.list(authors, { rowFilter: {}, limit: 10, sort, after: [lone, 1] }),
            'authors',
            'name',
            surrogate,
          )
          await expectInvalid(
            storage.list(authors, { ...page, rowFilter: { name: lone } }),
            'authors',
            'name',
            surrogate,
          )
        }
        expect(await storage.list(authors, page)).toEqual({ rows: [emoji], total: 1, count: 'exact' })
      })

      it('refuses integers beyond ±Number.MAX_SAFE_INTEGER anywhere, and stores the largest safe ones exactly', async () => {
        const storage = await openShop(dialect)
        const big = await storage.insert(authors, { name: 'big', visits: Number.MAX_SAFE_INTEGER })
        const small = await storage.insert(authors, { name: 'small', visits: Number.MIN_SAFE_INTEGER })
        expect((await storage.find(authors, big.id as number))?.visits).toBe(Number.MAX_SAFE_INTEGER)
        expect((await storage.find(authors, small.id as number))?.visits).toBe(Number.MIN_SAFE_INTEGER)
        for (const visits of [2 ** 53, -(2 ** 53), 1e20, 2 ** 63, 1.5]) {
          await expectInvalid(
            storage.insert(authors, { name: 'x', visits }),
            'authors',
            'visits',
            VALUE_REASONS.integer,
          )
          await expectInvalid(
            storage.update(authors, big.id as number, { visits }),
            'authors',
            'visits',
            VALUE_REASONS.integer,
          )
        }
        const filters = [{ column: 'visits', operator: 'gt', value: 2 ** 60 }] as const
        await expectInvalid(storage.list(authors, { ...page, filters }), 'authors', 'visits', VALUE_REASONS.integer)
        await expectInvalid(storage.find(authors, 2 ** 60), 'authors', 'id', VALUE_REASONS.integer)
        await expectInvalid(storage.delete(authors, 2 ** 60), 'authors', 'id', VALUE_REASONS.integer)
        await expectInvalid(storage.find(items, 1, { order_id: 2 ** 60 }), 'items', 'order_id', VALUE_REASONS.integer)
        await expectInvalid(
          storage.findWhereIn(items, 'order_id', [1, 2 ** 60]),
          'items',
          'order_id',
          VALUE_REASONS.integer,
        )
        expect(await countAll(storage, authors)).toBe(2)
      })

      it('refuses leap seconds, datetimes outside 0001–9999 and year-0000 dates, and stores the extremes', async () => {
        const storage = await openShop(dialect)
        const ada = await storage.insert(authors, { name: 'Ada' })
        const { leapSecond, range } = DATETIME_REASONS
        for (const [value, reason] of [
          ['2016-12-31T23:59:60Z', leapSecond],
          ['9999-12-31T23:59:59-23:59', range],
          ['0001-01-01T00:00:00+00:01', range],
        ] as const) {
          await expectInvalid(
            storage.insert(authors, { name: 'x', last_seen_at: value }),
            'authors',
            'last_seen_at',
            reason,
          )
          await expectInvalid(
            storage.update(authors, ada.id as number, { last_seen_at: value }),
            'authors',
            'last_seen_at',
            reason,
          )
        }
        // What the HTTP layer's filter parsing makes of an out-of-range value.
        const filters = [{ column: 'last_seen_at', operator: 'gte', value: '+010000-01-01T23:58:59.000Z' }] as const
        await expectInvalid(storage.list(authors, { ...page, filters }), 'authors', 'last_seen_at', range)
        await expectInvalid(
          storage.insert(authors, { name: 'x', born_on: '0000-01-01' }),
          'authors',
          'born_on',
          DATE_REASON,
        )
        await expectInvalid(
          storage.insert(authors, { name: 'x', born_on: '2023-02-29' }),
          'authors',
          'born_on',
          DATE_REASON,
        )

        for (const [born_on, last_seen_at] of [
          ['0001-01-01', '0001-01-01T00:00:00.000Z'],
          ['9999-12-31', '9999-12-31T23:59:59.999Z'],
        ] as const) {
          const stored = await storage.insert(authors, { name: 'edge', born_on, last_seen_at })
          expect(await storage.find(authors, stored.id as number)).toMatchObject({ born_on, last_seen_at })
        }
        expect(await countAll(storage, authors)).toBe(3)
      })

      it('refuses values of another type than the column, as a forged cursor could hold', async () => {
        const storage = await openShop(dialect)
        await storage.insert(authors, { name: 'Ada' })
        const sort = [{ column: 'visits', direction: 'asc' }] as const
        await expectInvalid(
          storage.list(authors, { ...page, offset: undefined, sort, after: ['abc', 1] }),
          'authors',
          'visits',
          VALUE_REASONS.integer,
        )
        await expectInvalid(
          storage.list(authors, { ...page, offset: undefined, sort, after: [1, 'abc'] }),
          'authors',
          'id',
          VALUE_REASONS.integer,
        )
        await expectInvalid(
          storage.insert(authors, { name: 'x', active: 'false' }),
          'authors',
          'active',
          VALUE_REASONS.boolean,
        )
        await expectInvalid(
          storage.insert(authors, { name: 'x', rating: Number.POSITIVE_INFINITY }),
          'authors',
          'rating',
          VALUE_REASONS.number,
        )
        await expectInvalid(storage.insert(authors, { name: 5 }), 'authors', 'name', VALUE_REASONS.string)
        expect(await countAll(storage, authors)).toBe(1)
      })

      it('limits text in indexed columns to 2000 bytes of UTF-8, shared by the strings of one index', async () => {
        const tagged = defineTables([
          {
            name: 'tags',
            columns: [
              column('label', 'string', { unique: true }),
              column('title', 'string'),
              optional('subtitle', 'string'),
            ],
            indexes: [{ columns: ['title', 'id'] }, { columns: ['title', 'subtitle'] }],
          },
        ])
        const tags = table(tagged, 'tags')
        const storage = newDatabase(dialect).open(tagged)
        await storage.prepare()
        // The most each may hold, in text that does not compress: PostgreSQL takes it too.
        const widest = { label: incompressible(2000), title: incompressible(1000), subtitle: incompressible(1000) }
        const stored = await storage.insert(tags, widest)
        expect(await storage.insert(tags, { label: 'é'.repeat(1000), title: 'ü'.repeat(500) })).toMatchObject({
          label: 'é'.repeat(1000),
        })

        await expectInvalid(
          storage.insert(tags, { ...widest, label: incompressible(2001) }),
          'tags',
          'label',
          describeIndexedTextLimit(2000),
        )
        await expectInvalid(
          storage.insert(tags, { ...widest, label: 'é'.repeat(1001) }),
          'tags',
          'label',
          describeIndexedTextLimit(2000),
        )
        await expectInvalid(
          storage.insert(tags, { label: 'x', title: 'ü'.repeat(501) }),
          'tags',
          'title',
          describeIndexedTextLimit(1000),
        )
        await expectInvalid(
          storage.update(tags, stored.id as number, { subtitle: incompressible(1001) }),
          'tags',
          'subtitle',
          describeIndexedTextLimit(1000),
        )
        expect(await countAll(storage, tags)).toBe(2)

        // Text no index covers is not limited.
        const shopStorage = await openShop(dialect)
        const name = incompressible(100_000)
        expect((await shopStorage.insert(authors, { name })).name).toBe(name)
      })

      it.runIf(dialect === 'postgres')(
        'maps data exceptions to InvalidValueError: the column PostgreSQL names, else the first one written',
        async () => {
          const database = newDatabase(dialect)
          const storage = database.open(shop)
          await storage.prepare()
          await runRawSql(database, [
            `create function refuse() returns trigger language plpgsql as $$
            begin
              if new.note = 'named' then raise exception 'out of range' using errcode = '22003', column = 'quantity'; end if;
              if new.note = 'unnamed' then raise exception 'bad bytes' using errcode = '22021'; end if;
              return new;
            end $$`,
            'create trigger refuse before insert or update on items for each row execute function refuse()',
          ])
          const { order, items: created } = await seedOrder(storage, 1)
          const reason = (message: string) => `is not a value the database accepts (${message})`
          const values = { order_id: order.id!, quantity: 1 }
          await expectInvalid(
            storage.insert(items, { ...values, note: 'named' }),
            'items',
            'quantity',
            reason('out of range'),
          )
          await expectInvalid(
            storage.insert(items, { ...values, note: 'unnamed' }),
            'items',
            'order_id',
            reason('bad bytes'),
          )
          await expectInvalid(
            storage.update(items, created[0]!.id as number, { note: 'unnamed' }),
            'items',
            'note',
            reason('bad bytes'),
          )
          expect(await countAll(storage, items)).toBe(1)
        },
      )

      it.runIf(dialect === 'postgres')(
        'recognises an index entry PostgreSQL finds too large, naming the index',
        async () => {
          const client = new pg.Client(POSTGRES_URL)
          await client.connect()
          try {
            await client.query('create temporary table wide (body text)')
            await client.query('create index wide_body_idx on wide (body)')
            const error = await client
              .query('insert into wide values ($1)', [incompressible(3000)])
              .catch((thrown: unknown) => thrown)
            expect(classifyPostgresError(error)).toEqual({
              kind: 'invalid-value',
              constraint: 'wide_body_idx',
              reason: 'is too long to be indexed',
            })
          } finally {
            await client.end()
          }
        },
      )
    })
  })
}
