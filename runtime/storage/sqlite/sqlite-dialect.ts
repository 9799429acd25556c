import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { StorageDialect } from '../storage-dialect.js'
import { sqliteColumnTypes } from './sqlite-column-types.js'
import { SqliteDriver } from './sqlite-driver.js'
import { classifySqliteError } from './sqlite-errors.js'
import { readSqliteTables } from './sqlite-introspection.js'
import { sqliteSyntax } from './sqlite-syntax.js'

/**
 * Opens the SQLite database at `location` (a file path, its directory created
 * when missing, or `:memory:`) with foreign keys enforced, and WAL journaling
 * for files so readers do not block the writer. `onStatement` hears every
 * statement run on the connection: these pragmas, prepare's introspection and
 * everything SqliteDriver runs (transaction control included).
 */
export function createSqliteDialect(location: string, onStatement?: (sql: string) => void): StorageDialect {
  const inMemory = location === ':memory:'
  if (!inMemory) mkdirSync(dirname(location), { recursive: true })
  const database = new Database(location)
  const pragma = (statement: string) => {
    onStatement?.(`pragma ${statement}`)
    database.pragma(statement)
  }
  if (!inMemory) pragma('journal_mode = WAL')
  pragma('foreign_keys = ON')
  // Kysely builds the SQL and runs prepare's introspection; statements run through SqliteDriver.
  const db = new Kysely<any>({
    dialect: new SqliteDialect({ database }),
    ...(onStatement === undefined ? {} : { log: (event) => onStatement(event.query.sql) }),
  })

  return {
    db,
    driver: new SqliteDriver(database, onStatement),
    columnTypes: sqliteColumnTypes,
    syntax: sqliteSyntax,
    // One database file is one namespace.
    createNamespace: async () => {},
    readExistingTables: () => readSqliteTables(db),
    classifyError: classifySqliteError,
    close: async () => {
      // Kysely closes the database only if it ever connected; closing twice is harmless.
      await db.destroy()
      database.close()
    },
  }
}
