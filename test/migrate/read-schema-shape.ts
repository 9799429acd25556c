import Database from 'better-sqlite3'
import pg from 'pg'
import { MIGRATIONS_TABLE } from '../../runtime/migrations/migration-files.js'
import type { MigrationDatabase } from './migration-database.js'
import { POSTGRES_URL } from '../support/test-postgres.js'

/**
 * Everything a database holds about its tables that prepare() decides:
 * columns (type, NOT NULL, default), constraints and indexes with their
 * names and definitions, each list sorted, so a migrated database and one
 * prepare() created compare equal whatever order columns were added in.
 * SQLite's automatic indexes (behind UNIQUE) appear by their columns only.
 * The migrations table is left out: it is the applier's, not the manifest's.
 */
export async function readSchemaShape(database: MigrationDatabase): Promise<string[]> {
  const shape =
    database.dialect === 'sqlite'
      ? readSqliteShape(database.url.slice('sqlite:'.length))
      : await readPostgresShape(database.schema)
  return shape.filter((line) => !line.startsWith(`${MIGRATIONS_TABLE} `)).sort()
}

function readSqliteShape(file: string): string[] {
  const connection = new Database(file, { readonly: true })
  try {
    const tables = connection
      .prepare<[], { name: string }>(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`)
      .all()
    return tables.flatMap(({ name }) => [
      ...connection
        .prepare<[string], object>(`select name, type, "notnull", dflt_value, pk from pragma_table_info(?)`)
        .all(name)
        .map((column) => `${name} column ${JSON.stringify(column)}`),
      ...connection
        .prepare<[string], object>(`select "table", "from", "to", on_delete from pragma_foreign_key_list(?)`)
        .all(name)
        .map((key) => `${name} foreign key ${JSON.stringify(key)}`),
      ...connection
        .prepare<[string], { name: string; unique: number; origin: string; columns: string }>(
          `select il.name, il."unique", il.origin, (select group_concat(ii.name) from pragma_index_info(il.name) ii) as columns
           from pragma_index_list(?) il`,
        )
        .all(name)
        .map((index) =>
          index.origin === 'c'
            ? `${name} index ${index.name} (${index.columns})`
            : `${name} ${index.origin} unique=${index.unique} (${index.columns})`,
        ),
    ])
  } finally {
    connection.close()
  }
}

async function readPostgresShape(schema: string): Promise<string[]> {
  const client = new pg.Client(POSTGRES_URL)
  await client.connect()
  try {
    const columns = await client.query(
      `select table_name, column_name, data_type, is_nullable, column_default, is_identity
       from information_schema.columns where table_schema = $1`,
      [schema],
    )
    const constraints = await client.query(
      `select c.relname as table, con.conname as name, pg_get_constraintdef(con.oid) as definition
       from pg_constraint con join pg_class c on con.conrelid = c.oid join pg_namespace n on c.relnamespace = n.oid
       where n.nspname = $1`,
      [schema],
    )
    const indexes = await client.query(`select tablename, indexname, indexdef from pg_indexes where schemaname = $1`, [
      schema,
    ])
    return [
      ...columns.rows.map((row) => `${row.table_name} column ${JSON.stringify(row)}`),
      ...constraints.rows.map((row) => `${row.table} constraint ${row.name} ${row.definition}`),
      ...indexes.rows.map((row) => `${row.tablename} index ${row.indexdef}`),
    ].map((line) => line.replaceAll(`"${schema}".`, '').replaceAll(`${schema}.`, ''))
  } finally {
    await client.end()
  }
}
