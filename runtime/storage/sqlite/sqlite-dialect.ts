import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { StorageDialect } from '../storage-dialect.js'
import { sqliteColumnTypes } from './sqlite-column-types.js'
import { SqliteDriver } from './sqlite-driver.js'
import { classifySqliteError } from './sqlite-errors.js'
import { readSqliteTables } from './sqlite-introspection.js'
import {
  DECIMAL_AVG_FUNCTION,
  DECIMAL_KEY_FUNCTION,
  DECIMAL_SUM_FUNCTION,
  DECIMAL_TEXT_FUNCTION,
  FOLD_CASE_FUNCTION,
  sqliteSyntax,
} from './sqlite-syntax.js'
import { foldCase } from '../fold-case.js'
import { decodeDecimalKey, encodeDecimalKey, fitDecimal } from '../decimal-text.js'
import {
  addToDecimalSum,
  formatDecimalAverage,
  formatDecimalSum,
  startDecimalSum,
  type DecimalSum,
} from '../decimal-sum.js'

const BUSY_TIMEOUT_MS = 5000

/**
 * Opens the SQLite database at `location` (a file path, its directory created
 * when missing, or `:memory:`) with foreign keys enforced, WAL journaling for
 * files so readers do not block the writer, and foldCase registered as
 * FOLD_CASE_FUNCTION. `onStatement` hears every statement run on the
 * connection: these pragmas and everything SqliteDriver runs (transaction
 * control included); Kysely only builds SQL.
 */
export function createSqliteDialect(location: string, onStatement?: (sql: string) => void): StorageDialect {
  const inMemory = location === ':memory:'
  if (!inMemory) mkdirSync(dirname(location), { recursive: true })
  // How long a statement waits for another process's lock (prepare() of several instances at once, say).
  const database = new Database(location, { timeout: BUSY_TIMEOUT_MS })
  const pragma = (statement: string) => {
    onStatement?.(`pragma ${statement}`)
    database.pragma(statement)
  }
  if (!inMemory) pragma('journal_mode = WAL')
  pragma('foreign_keys = ON')
  database.function(FOLD_CASE_FUNCTION, { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? foldCase(text) : text,
  )
  registerDecimalFunctions(database)
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database }) })

  return {
    name: 'sqlite',
    db,
    driver: new SqliteDriver(database, onStatement),
    columnTypes: sqliteColumnTypes,
    syntax: sqliteSyntax,
    // Everything it needs is built into better-sqlite3.
    checkSupport: async () => {},
    // SqliteDriver's transactions begin IMMEDIATE: they already exclude every other writer.
    lockNamespace: async () => {},
    // One database file is one namespace.
    createNamespace: async () => {},
    // One database file is one namespace.
    runScript: (executor, sql) => executor.executeScript(sql),
    readExistingTables: (executor) => readSqliteTables(executor, db),
    classifyError: classifySqliteError,
    close: async () => {
      // Kysely closes the database only if it ever connected; closing twice is harmless.
      await db.destroy()
      database.close()
    },
  }
}

/**
 * DECIMAL_KEY_FUNCTION and DECIMAL_TEXT_FUNCTION, which migrations converting
 * to or from decimal call, and the exact decimal aggregates DECIMAL_SUM_FUNCTION
 * and DECIMAL_AVG_FUNCTION, which aggregate queries call.
 */
export function registerDecimalFunctions(database: Database.Database): void {
  database.function(
    DECIMAL_KEY_FUNCTION,
    { deterministic: true },
    (text: unknown, precision: unknown, scale: unknown) => {
      if (text === null) return null
      const fitted = fitDecimal(String(text), Number(precision), Number(scale))
      return fitted === null ? null : encodeDecimalKey(fitted)
    },
  )
  database.function(DECIMAL_TEXT_FUNCTION, { deterministic: true }, (key: unknown, scale: unknown) =>
    typeof key === 'string' ? decodeDecimalKey(key, Number(scale)) : null,
  )
  for (const [name, format] of [
    [DECIMAL_SUM_FUNCTION, formatDecimalSum],
    [DECIMAL_AVG_FUNCTION, formatDecimalAverage],
  ] as const) {
    const step = (sum: DecimalSum | null, key: unknown, scale: unknown): DecimalSum | null => {
      if (typeof key !== 'string') return sum
      const started = sum ?? startDecimalSum(Number(scale))
      return addToDecimalSum(started, decodeDecimalKey(key, started.scale))
    }
    database.aggregate<DecimalSum | null>(name, {
      start: null,
      // The typings allow one argument after the running total; SQLite passes each the call has (key, scale).
      step: step as (sum: DecimalSum | null, key: unknown) => DecimalSum | null,
      result: (sum) => (sum === null ? null : format(sum)),
    })
  }
}
