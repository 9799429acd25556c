import { redactCredentials } from './redact-credentials.js'
import { StorageUrlError } from './storage-errors.js'
import type { TableDefinition } from '../contract/table-definition.js'
import { KyselyStorage } from './kysely-storage.js'
import { createPostgresDialect, type PostgresPoolOptions } from './postgres/postgres-dialect.js'
import { createSqliteDialect } from './sqlite/sqlite-dialect.js'
import type { Storage } from './storage.js'
import type { StorageDialect } from './storage-dialect.js'

export interface CreateStorageOptions {
  /** PostgreSQL schema holding every table (default `public`); ignored for SQLite. */
  readonly schema?: string
  /**
   * Called with the SQL text of every statement sent to the database, once
   * per statement, just before it runs (whether or not it then fails): the
   * storage's queries, transaction control (`begin`/`begin immediate`,
   * `commit`, `rollback`), and what prepare() runs (PostgreSQL's advisory
   * lock and CREATE SCHEMA, schema introspection, CREATE TABLE/INDEX; for
   * SQLite also the connection's pragmas when the storage is created). For
   * tests that bound the number of statements a request issues.
   */
  readonly onStatement?: (sql: string) => void
  /** PostgreSQL's connection pool: its size and how long a statement waits for a connection; ignored for SQLite. */
  readonly pool?: PostgresPoolOptions
}

const ACCEPTED_URLS = 'sqlite:./path/to/file.db, sqlite::memory: or postgres://user@host:5432/database'

/**
 * Opens the storage for a database URL: `sqlite:<file path>` (its directory
 * is created when missing), `sqlite::memory:`, or `postgres://…` /
 * `postgresql://…`. Nothing touches the tables until `prepare()`. Throws for
 * any other URL, naming the accepted forms.
 */
export function createStorage(
  url: string,
  tables: readonly TableDefinition[],
  options: CreateStorageOptions = {},
): Storage {
  return new KyselyStorage(openDialect(url, options), tables)
}

/** The dialect behind createStorage, for what runs beside a storage on the same database (migrations). */
export function openDialect(url: string, options: CreateStorageOptions): StorageDialect {
  if (url === 'sqlite::memory:') return createSqliteDialect(':memory:', options.onStatement)
  if (url.startsWith('sqlite:') && url.length > 'sqlite:'.length)
    return createSqliteDialect(url.slice('sqlite:'.length), options.onStatement)
  if (/^postgres(ql)?:\/\//.test(url))
    return createPostgresDialect(url, options.schema, options.onStatement, options.pool)
  throw new StorageUrlError(`Unsupported database URL "${redactCredentials(url)}": use ${ACCEPTED_URLS}.`)
}
