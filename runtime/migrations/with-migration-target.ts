import { openDialect } from '../storage/create-storage.js'
import type { StorageDialect } from '../storage/storage-dialect.js'
import { readMigrationFiles, type MigrationFile } from './read-migration-files.js'

/** A database and the migrations directory it should follow. */
export interface MigrationTarget {
  /** `sqlite:<file>`, `sqlite::memory:` or `postgres://…`, as createStorage takes it. */
  readonly url: string
  /** PostgreSQL schema holding the tables and the migrations table (default `public`); ignored for SQLite. */
  readonly schema?: string
  /** The migrations directory (`migrations`). */
  readonly directory: string
}

/** Opens the target's database, reads its dialect's migration files, runs `work`, and closes the database. */
export async function withMigrationTarget<T>(
  target: MigrationTarget,
  work: (dialect: StorageDialect, files: readonly MigrationFile[]) => Promise<T>,
): Promise<T> {
  const dialect = openDialect(target.url, target.schema === undefined ? {} : { schema: target.schema })
  try {
    return await work(dialect, readMigrationFiles(target.directory, dialect.name))
  } finally {
    await dialect.close()
  }
}
