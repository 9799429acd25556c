import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { createStorage } from '../../runtime/storage/create-storage.js'
import type { Storage } from '../../runtime/storage/storage.js'
import type { FieldType } from '../../runtime/contract/field-type.js'
import type { ColumnDefinition, IndexDefinition, TableDefinition } from '../../runtime/table-definition.js'
import { POSTGRES_URL, type Dialect } from '../support/test-postgres.js'

/** Table definitions and throwaway databases for the storage tests, on both dialects. */

export { DIALECTS, POSTGRES_URL, type Dialect } from '../support/test-postgres.js'

export function column(name: string, type: FieldType, options: Partial<ColumnDefinition> = {}): ColumnDefinition {
  return { name, type, nullable: false, unique: false, readOnly: false, default: null, ...options }
}

export function optional(name: string, type: FieldType, options: Partial<ColumnDefinition> = {}): ColumnDefinition {
  return column(name, type, { nullable: true, ...options })
}

export function foreignKey(name: string, table: string, onDelete: 'restrict' | 'cascade', nullable = false) {
  return column(name, 'integer', { nullable, references: { table, onDelete } })
}

export interface TableSpec {
  readonly name: string
  readonly columns: ColumnDefinition[]
  readonly indexes?: IndexDefinition[]
}

/** Adds the server-managed columns and every table's `referencedBy`, as generated schema.ts does. */
export function defineTables(specs: readonly TableSpec[]): TableDefinition[] {
  const managed = (name: string, type: FieldType) => column(name, type, { readOnly: true })
  return specs.map((spec) => ({
    name: spec.name,
    resource: spec.name.replaceAll('_', '-'),
    singular: spec.name.replace(/s$/, ''),
    columns: [
      managed('id', 'integer'),
      ...spec.columns,
      managed('created_at', 'datetime'),
      managed('updated_at', 'datetime'),
    ],
    referencedBy: specs.flatMap((other) =>
      other.columns
        .filter((candidate) => candidate.references?.table === spec.name)
        .map((candidate) => ({
          table: other.name,
          resource: other.name.replaceAll('_', '-'),
          column: candidate.name,
          onDelete: candidate.references!.onDelete,
        })),
    ),
    ...(spec.indexes === undefined ? {} : { indexes: spec.indexes }),
  }))
}

export function table(tables: readonly TableDefinition[], name: string): TableDefinition {
  const found = tables.find((candidate) => candidate.name === name)
  if (found === undefined) throw new Error(`fixture has no table ${name}`)
  return found
}

export interface TestDatabase {
  readonly dialect: Dialect
  /** The PostgreSQL schema, or the SQLite file. */
  readonly location: string
  open(tables: readonly TableDefinition[], onStatement?: (sql: string) => void): Storage
}

/**
 * Fresh databases (an SQLite file, or a PostgreSQL schema of its own), each
 * openable several times; `closeOpened` closes the storages opened since the
 * last call, `dropAll` removes every database.
 */
export function createTestDatabases() {
  const run = `restmint_test_${randomBytes(4).toString('hex')}`
  const sqliteDirectory = mkdtempSync(join(tmpdir(), 'restmint-storage-'))
  const postgresSchemas: string[] = []
  const opened: Storage[] = []
  let databases = 0

  return {
    sqliteDirectory,
    opened,
    newDatabase(dialect: Dialect): TestDatabase {
      const index = ++databases
      const schema = `${run}_${index}`
      if (dialect === 'postgres') postgresSchemas.push(schema)
      const file = join(sqliteDirectory, `db-${index}`, 'shop.db')
      return {
        dialect,
        location: dialect === 'sqlite' ? file : schema,
        open(tables, onStatement) {
          const options = onStatement === undefined ? {} : { onStatement }
          const storage =
            dialect === 'sqlite'
              ? createStorage(`sqlite:${file}`, tables, options)
              : createStorage(POSTGRES_URL, tables, { schema, ...options })
          opened.push(storage)
          return storage
        },
      }
    },
    async closeOpened(): Promise<void> {
      await Promise.all(opened.splice(0).map((storage) => storage.close()))
    },
    async dropAll(): Promise<void> {
      rmSync(sqliteDirectory, { recursive: true, force: true })
      if (postgresSchemas.length === 0) return
      const db = new Kysely<any>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: POSTGRES_URL }) }),
      })
      for (const schema of postgresSchemas) await db.schema.dropSchema(schema).ifExists().cascade().execute()
      await db.destroy()
    },
  }
}

/**
 * Runs SQL on a test database behind the storage's back (tables made by hand,
 * extra constraints, triggers): on the SQLite file, or in the PostgreSQL
 * schema (created when missing, and first on the search path).
 */
export async function runRawSql(database: TestDatabase, statements: readonly string[]): Promise<void> {
  if (database.dialect === 'sqlite') {
    mkdirSync(dirname(database.location), { recursive: true })
    const connection = new Database(database.location)
    try {
      for (const statement of statements) connection.exec(statement)
    } finally {
      connection.close()
    }
    return
  }
  const client = new pg.Client(POSTGRES_URL)
  await client.connect()
  try {
    await client.query(`create schema if not exists "${database.location}"`)
    await client.query(`set search_path to "${database.location}"`)
    for (const statement of statements) await client.query(statement)
  } finally {
    await client.end()
  }
}
