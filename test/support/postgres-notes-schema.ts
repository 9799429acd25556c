import { afterAll, beforeAll } from 'vitest'
import { createPostgresDialect, type PostgresPoolOptions } from '../../runtime/storage/postgres/postgres-dialect.js'
import type { StorageDialect } from '../../runtime/storage/storage-dialect.js'
import { POSTGRES_OFF, POSTGRES_URL } from './test-postgres.js'

/** A throwaway schema of the calling test file, with the dialects its tests open on it. */
export interface NotesSchema {
  readonly schema: string
  /** `"<schema>"."notes"`: a serial id and a unique, non-null body; one row, body 'dup', from the start. */
  readonly table: string
  /** A dialect on the schema, closed after the file's tests. */
  open(pool: PostgresPoolOptions, onStatement?: (sql: string) => void, url?: string): StorageDialect
  /** The dialect that made the schema (its pool `adminPool`), and drops it after the file's tests. */
  admin(): StorageDialect
}

/**
 * Makes the schema `<prefix>_<pid>` and its notes table before the calling
 * file's tests, and drops it and closes every dialect opened on it after them
 * (nothing when the tests run without PostgreSQL). Called at the top of a file.
 */
export function useNotesSchema(prefix: string, adminPool: PostgresPoolOptions = { size: 1 }): NotesSchema {
  const schema = `${prefix}_${process.pid}`
  const table = `"${schema}"."notes"`
  const dialects: StorageDialect[] = []
  const open = (pool: PostgresPoolOptions, onStatement?: (sql: string) => void, url = POSTGRES_URL) => {
    const dialect = createPostgresDialect(url, schema, onStatement, pool)
    dialects.push(dialect)
    return dialect
  }
  let admin: StorageDialect | undefined
  if (!POSTGRES_OFF) registerHooks()
  return { schema, table, open, admin: () => admin! }

  function registerHooks(): void {
    beforeAll(async () => {
      admin = open(adminPool)
      await admin.driver.execute(`create schema "${schema}"`, [])
      await admin.driver.execute(`create table ${table} ("id" serial primary key, "body" text not null unique)`, [])
      await admin.driver.execute(`insert into ${table} ("body") values ($1)`, ['dup'])
    })
    afterAll(async () => {
      await admin?.driver.execute(`drop schema "${schema}" cascade`, [])
      for (const dialect of dialects) await dialect.close()
    })
  }
}
