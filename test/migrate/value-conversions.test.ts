import Database from 'better-sqlite3'
import { sql, type Expression, type Kysely } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import type { FieldType } from '../../runtime/contract/field-type.js'
import { convertColumnValue, type ValueConversions } from '../../generator/migrate/convert-column-value.js'
import { postgresMigrationSql } from '../../generator/migrate/postgres/postgres-migration-sql.js'
import { postgresValueConversions } from '../../generator/migrate/postgres/postgres-value-conversions.js'
import { sqliteMigrationSql } from '../../generator/migrate/sqlite/sqlite-migration-sql.js'
import { sqliteValueConversions } from '../../generator/migrate/sqlite/sqlite-value-conversions.js'
import { DIALECTS, POSTGRES_URL, type Dialect } from '../support/test-postgres.js'

/**
 * A migration's text → number and text → integer conversions give the same value on every database: what does
 * not convert exactly (white space, Infinity, a value that underflows to 0) becomes NULL on both, never a failed
 * statement on one and a rounded value on the other.
 */
const TO_NUMBER: readonly (readonly [string, number | null])[] = [
  ['42', 42],
  ['1.5e2', 150],
  ['-0.5', -0.5],
  ['0', 0],
  ['0.0e0', 0],
  ['-0', -0],
  ['1e308', 1e308],
  ['2.5e-300', 2.5e-300],
  [' 42 ', null],
  ['42\n', null],
  ['1e400', null],
  ['-1e400', null],
  ['1e-400', null],
  ['1e-310', null],
  ['1e99999', null],
  ['Infinity', null],
  ['NaN', null],
  ['0x10', null],
  ['.5', null],
  ['1.', null],
  ['', null],
  ['abc', null],
]

const TO_INTEGER: readonly (readonly [string, number | null])[] = [
  ['42', 42],
  ['-9007199254740991', -9007199254740991],
  [' 42', null],
  ['42 ', null],
  ['1e3', null],
  ['9007199254740992', null],
  ['1.5', null],
]

const DIALECT_SQL: Readonly<Record<Dialect, { db: Kysely<any>; conversions: ValueConversions }>> = {
  sqlite: { db: sqliteMigrationSql.db, conversions: sqliteValueConversions },
  postgres: { db: postgresMigrationSql.db, conversions: postgresValueConversions },
}

const sqlite = new Database(':memory:')
const postgres = DIALECTS.includes('postgres') ? new pg.Client({ connectionString: POSTGRES_URL }) : null
await postgres?.connect()
afterAll(async () => {
  sqlite.close()
  await postgres?.end()
})

/**
 * The value a migration stores for `text` in a column of `type`, read back as a JS number: converted from a
 * table's column, as in a migration (PostgreSQL folds a literal before CASE could guard its casts).
 */
async function convert(dialect: Dialect, type: FieldType, text: string): Promise<number | null> {
  const { db, conversions } = DIALECT_SQL[dialect]
  const value = convertColumnValue(conversions, { type: 'string' }, { type }, sql.ref('text') as Expression<unknown>)
  const query = sql`select ${value} as value from samples`.compile(db)
  if (dialect === 'sqlite') {
    sqlite.exec('create temp table if not exists samples (text text); delete from samples')
    sqlite.prepare('insert into samples values (?)').run(text)
    return (sqlite.prepare(query.sql).get(...(query.parameters as unknown[])) as { value: number | null }).value
  }
  await postgres!.query('create temp table if not exists samples (text text); delete from samples')
  await postgres!.query('insert into samples values ($1)', [text])
  const result = await postgres!.query({ text: query.sql, values: [...query.parameters], rowMode: 'array' })
  const stored: unknown = result.rows[0]?.[0]
  return stored === null ? null : Number(stored)
}

describe.each(DIALECTS)('%s: a migration converting text', (dialect) => {
  it.each(TO_NUMBER)('to a number reads %j as %j', async (text, expected) => {
    expect(await convert(dialect, 'number', text)).toBe(expected)
  })

  it.each(TO_INTEGER)('to an integer reads %j as %j', async (text, expected) => {
    expect(await convert(dialect, 'integer', text)).toBe(expected)
  })
})
