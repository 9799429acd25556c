import pg from 'pg'
import { Kysely, PostgresDialect, sql, type TableMetadata } from 'kysely'
import type { StorageDialect } from '../storage-dialect.js'
import { postgresColumnTypes, postgresTypeParsers } from './postgres-column-types.js'
import { PostgresDriver } from './postgres-driver.js'
import { classifyPostgresError } from './postgres-errors.js'
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
    readExistingTables: () => readTables(base, schema),
    classifyError: classifyPostgresError,
    close: async () => {
      // Kysely ends the pool only if it ever used it.
      await base.destroy()
      if (!pool.ended) await pool.end()
    },
  }
}

interface ColumnRow {
  readonly table: string
  readonly column: string
  readonly type: string
  readonly not_null: boolean
  readonly has_default: boolean
}

/**
 * The base tables of `schema` and their columns (type as pg_type.typname).
 * Kysely's introspector reads every schema of the database and calls
 * has_schema_privilege() on each by name, which fails when another client
 * drops a schema meanwhile (parallel test runs do); this reads only ours.
 */
async function readTables(db: Kysely<any>, schema: string): Promise<TableMetadata[]> {
  const { rows } = await sql<ColumnRow>`
    select c.relname as "table", a.attname as "column", t.typname as "type",
      a.attnotnull as "not_null", a.atthasdef as "has_default"
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on a.attrelid = c.oid
    join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
    join pg_catalog.pg_type t on a.atttypid = t.oid
    where ns.nspname = ${schema} and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`.execute(db)
  const tables = new Map<string, TableMetadata>()
  for (const row of rows) {
    let table = tables.get(row.table)
    if (table === undefined) {
      table = { name: row.table, schema, isView: false, columns: [] }
      tables.set(row.table, table)
    }
    table.columns.push({
      name: row.column,
      dataType: row.type,
      isNullable: !row.not_null,
      isAutoIncrementing: false,
      hasDefaultValue: row.has_default,
    })
  }
  return [...tables.values()]
}
