import pg from 'pg'
import { Kysely, PostgresDialect } from 'kysely'
import type { StorageDialect } from '../storage-dialect.js'
import { postgresColumnTypes, postgresTypeParsers } from './postgres-column-types.js'
import { PostgresDriver } from './postgres-driver.js'
import { classifyPostgresError } from './postgres-errors.js'
import { readPostgresTables } from './postgres-introspection.js'
import { postgresSyntax } from './postgres-syntax.js'

/**
 * Connects a pool to the PostgreSQL database at `url`; every table lives in
 * `schema` (created by prepare when missing). `onStatement` hears every
 * statement sent: Kysely's (CREATE SCHEMA, introspection) and everything
 * PostgresDriver runs (transaction control included).
 */
export function createPostgresDialect(
  url: string,
  schema = 'public',
  onStatement?: (sql: string) => void,
): StorageDialect {
  const pool = new pg.Pool({ connectionString: url, types: postgresTypeParsers })
  // An idle connection that dies is dropped by the pool; without a listener the process would crash.
  pool.on('error', () => {})
  // Kysely builds the SQL and introspects; statements run through PostgresDriver.
  const base = new Kysely<any>({
    dialect: new PostgresDialect({ pool }),
    ...(onStatement === undefined ? {} : { log: (event) => onStatement(event.query.sql) }),
  })

  return {
    db: base.withSchema(schema),
    driver: new PostgresDriver(pool, onStatement),
    columnTypes: postgresColumnTypes,
    syntax: postgresSyntax,
    createNamespace: async () => {
      await base.schema.createSchema(schema).ifNotExists().execute()
    },
    readExistingTables: () => readPostgresTables(base, schema),
    classifyError: classifyPostgresError,
    close: async () => {
      // Kysely ends the pool only if it ever used it.
      await base.destroy()
      if (!pool.ended) await pool.end()
    },
  }
}
