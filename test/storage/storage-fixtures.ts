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
import type { ColumnDefinition, IndexDefinition, TableDefinition } from '../../runtime/contract/table-definition.js'
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
  /** A storage on the database, closed by closeOpened. */
  open(tables: readonly TableDefinition[], onStatement?: (sql: string) => void): Storage
  /** A storage on the database that the caller closes. */
  storageOn(tables: readonly TableDefinition[], onStatement?: (sql: string) => void): Storage
}

interface KeptStorage {
  readonly database: TestDatabase
  readonly storage: Storage
  readonly listener: { current: (sql: string) => void }
  readonly emptier: Emptier
}

interface Emptier {
  /** Deletes every row of the tables and restarts their ids at 1. */
  empty(): Promise<void>
  close(): Promise<void>
}

/** A connection of its own that empties `tables` behind the storage's back (foreign keys do not stop it). */
function openEmptier(database: TestDatabase, tables: readonly TableDefinition[]): Emptier {
  const names = tables.map((definition) => `"${definition.name}"`)
  if (database.dialect === 'sqlite') {
    // With foreign keys off the order does not matter; AUTOINCREMENT counts in sqlite_sequence.
    const connection = new Database(database.location)
    connection.pragma('foreign_keys = off')
    const statements = [...names.map((name) => `delete from ${name}`), 'delete from sqlite_sequence']
    return {
      empty: async () => void connection.transaction(() => statements.forEach((sql) => connection.exec(sql)))(),
      close: async () => void connection.close(),
    }
  }
  const client = new pg.Client(POSTGRES_URL)
  const connected = client.connect()
  const qualified = names.map((name) => `"${database.location}".${name}`)
  return {
    async empty() {
      await connected
      await client.query(`truncate ${qualified.join(', ')} restart identity`)
    },
    close: () => client.end(),
  }
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
  const kept = new Map<readonly TableDefinition[], Map<Dialect, KeptStorage>>()
  let databases = 0

  return {
    sqliteDirectory,
    opened,
    newDatabase(dialect: Dialect): TestDatabase {
      const index = ++databases
      const schema = `${run}_${index}`
      if (dialect === 'postgres') postgresSchemas.push(schema)
      const file = join(sqliteDirectory, `db-${index}`, 'shop.db')
      const storageOn = (tables: readonly TableDefinition[], onStatement?: (sql: string) => void): Storage => {
        const options = onStatement === undefined ? {} : { onStatement }
        return dialect === 'sqlite'
          ? createStorage(`sqlite:${file}`, tables, options)
          : createStorage(POSTGRES_URL, tables, { schema, ...options })
      }
      return {
        dialect,
        location: dialect === 'sqlite' ? file : schema,
        open(tables, onStatement) {
          const storage = storageOn(tables, onStatement)
          opened.push(storage)
          return storage
        },
        storageOn,
      }
    },
    /**
     * A prepared storage on `tables` holding no rows, ids starting at 1 again, whose statements go to
     * `onStatement`: opened on a database of its own by the first call for a dialect and `tables`, and
     * emptied by each later one, until dropAll. Creating a PostgreSQL schema with its tables and
     * indexes, and preparing a storage on it, cost most of the time of each test that needs only
     * empty tables.
     */
    async emptyStorage(
      dialect: Dialect,
      tables: readonly TableDefinition[],
      onStatement: (sql: string) => void = () => {},
    ): Promise<{ readonly storage: Storage; readonly database: TestDatabase }> {
      const byDialect = kept.get(tables) ?? new Map<Dialect, KeptStorage>()
      kept.set(tables, byDialect)
      let entry = byDialect.get(dialect)
      if (entry === undefined) {
        const database = this.newDatabase(dialect)
        const listener = { current: onStatement }
        const storage = database.storageOn(tables, (sql) => listener.current(sql))
        await storage.prepare()
        entry = { database, storage, listener, emptier: openEmptier(database, tables) }
        byDialect.set(dialect, entry)
      } else {
        await entry.emptier.empty()
      }
      entry.listener.current = onStatement
      return entry
    },
    async closeOpened(): Promise<void> {
      await Promise.all(opened.splice(0).map((storage) => storage.close()))
    },
    async dropAll(): Promise<void> {
      const entries = [...kept.values()].flatMap((byDialect) => [...byDialect.values()])
      kept.clear()
      await Promise.all(entries.flatMap((entry) => [entry.storage.close(), entry.emptier.close()]))
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
