import Database from 'better-sqlite3'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { SqliteDriver } from '../../runtime/storage/sqlite/sqlite-driver.js'

// SqliteDriver reads rows in raw mode and builds each object with a literal compiled per statement:
// the rows must be exactly what better-sqlite3's own object mode returns.
const database = new Database(':memory:')
const driver = new SqliteDriver(database)
const objects = (sql: string, parameters: unknown[] = []) => database.prepare(sql).all(parameters)

afterAll(() => database.close())

describe('SqliteDriver rows', () => {
  it('match object mode for any values, in column order, duplicates keeping the last', async () => {
    database.exec('create table things ("id" integer primary key, "name" text, "score" real, "__proto__" text)')
    const value = fc.oneof(fc.constant(null), fc.integer(), fc.double({ noNaN: true }), fc.string({ unit: 'grapheme' }))
    await fc.assert(
      fc.asyncProperty(fc.tuple(fc.string({ unit: 'grapheme' }), value, value), async ([name, score, proto]) => {
        database.exec('delete from things')
        database.prepare('insert into things ("name", "score", "__proto__") values (?, ?, ?)').run(name, score, proto)
        for (const sql of [
          'select "id", "name", "score" from things',
          'select "name" as "x", "score" as "x", "id" from things',
          'select "score", "name" from things where "id" = ?',
        ]) {
          const parameters = sql.includes('?') ? [1] : []
          const rows = await driver.execute(sql, parameters)
          const expected = objects(sql, parameters)
          expect(rows).toEqual(expected)
          expect(rows.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row as object)))
          expect(rows.every((row) => Object.getPrototypeOf(row) === Object.prototype)).toBe(true)
        }
        // Object mode sets `__proto__` through its setter (losing the column); here it is a column like any other.
        const [row] = await driver.execute('select "id", "__proto__" from things', [])
        expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(
          (objects('select "__proto__" as "stored" from things')[0] as { stored: unknown }).stored,
        )
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
      }),
      { numRuns: 50 },
    )
  })

  it('follows a statement SQLite prepared again after a schema change', async () => {
    database.exec('create table widgets ("id" integer primary key, "name" text)')
    database.exec(`insert into widgets ("name") values ('a')`)
    expect(await driver.execute('select * from widgets', [])).toEqual([{ id: 1, name: 'a' }])
    database.exec(`alter table widgets add column "size" integer not null default 3`)
    expect(await driver.execute('select * from widgets', [])).toEqual([{ id: 1, name: 'a', size: 3 }])
  })

  it('returns no rows for a statement that returns none, and rows from RETURNING', async () => {
    database.exec('create table notes ("id" integer primary key, "body" text)')
    expect(await driver.execute(`insert into notes ("body") values ('x')`, [])).toEqual([])
    expect(await driver.execute(`insert into notes ("body") values (?) returning "id", "body"`, ['y'])).toEqual([
      { id: 2, body: 'y' },
    ])
  })
})
