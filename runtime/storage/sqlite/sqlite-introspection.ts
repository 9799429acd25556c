import { sql, type Kysely } from 'kysely'
import { runRawQuery } from '../run-raw-query.js'
import { findCheckConstraints } from '../find-check-constraints.js'
import {
  assembleExistingTables,
  type ColumnRow,
  type ForeignKeyRow,
  type IndexRow,
  type UniqueRow,
} from '../assemble-existing-tables.js'
import type { ExistingTable, ForeignKeyAction, SqlExecutor } from '../storage-dialect.js'

/**
 * The database's base tables with their columns (PRAGMA table_info), UNIQUE
 * constraints and unique indexes (PRAGMA index_list / index_info, the primary
 * key left out) foreign keys (PRAGMA foreign_key_list) and the names of the other indexes made by CREATE INDEX, through the
 * pragma table-valued functions, and CHECK constraints, which no pragma
 * lists, from each table's CREATE TABLE statement; run by `executor`.
 */
export async function readSqliteTables(executor: SqlExecutor, db: Kysely<any>): Promise<ExistingTable[]> {
  const columns = await runRawQuery(
    executor,
    db,
    sql<{ table: string; column: string; type: string; not_null: number; default: string | null }>`
    select m.name as "table", c.name as "column", c.type as "type", c."notnull" as "not_null",
      c.dflt_value as "default"
    from sqlite_master m join pragma_table_info(m.name) c
    where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\'
    order by m.name, c.cid`,
  )
  const uniques = await runRawQuery(
    executor,
    db,
    sql<{ table: string; name: string; partial: number; column: string | null }>`
    select m.name as "table", il.name as "name", il.partial as "partial", ii.name as "column"
    from sqlite_master m join pragma_index_list(m.name) il join pragma_index_info(il.name) ii
    where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\' and il."unique" = 1 and il.origin <> 'pk'
    order by m.name, il.name, ii.seqno`,
  )
  const foreignKeys = await runRawQuery(
    executor,
    db,
    sql<{
      table: string
      id: number
      referenced_table: string
      column: string
      referenced_column: string | null
      on_delete: string
    }>`
    select m.name as "table", fk.id as "id", fk."table" as "referenced_table", fk."from" as "column",
      fk."to" as "referenced_column", fk.on_delete as "on_delete"
    from sqlite_master m join pragma_foreign_key_list(m.name) fk
    where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\'
    order by m.name, fk.id, fk.seq`,
  )
  const indexes = await runRawQuery(
    executor,
    db,
    sql<IndexRow>`
    select m.name as "table", il.name as "name"
    from sqlite_master m join pragma_index_list(m.name) il
    where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\' and il."unique" = 0 and il.origin = 'c'`,
  )
  const definitions = await runRawQuery(
    executor,
    db,
    sql<{ table: string; sql: string }>`
    select name as "table", sql from sqlite_master
    where type = 'table' and name not like 'sqlite\\_%' escape '\\'`,
  )
  return assembleExistingTables(
    columns.map((row): ColumnRow => ({
      table: row.table,
      column: row.column,
      type: row.type,
      nullable: !row.not_null,
      default: row.default,
    })),
    uniques.map((row): UniqueRow => ({
      table: row.table,
      name: row.name,
      partial: row.partial !== 0,
      column: row.column,
    })),
    foreignKeys.map((row): ForeignKeyRow => ({
      table: row.table,
      name: `foreign key #${row.id}`,
      column: row.column,
      referencedTable: row.referenced_table,
      referencedColumn: row.referenced_column,
      onDelete: readAction(row.on_delete),
    })),
    definitions.flatMap((row) => findCheckConstraints(row.sql).map((check) => ({ table: row.table, ...check }))),
    indexes,
  )
}

/** PRAGMA foreign_key_list's on_delete: `NO ACTION`, `RESTRICT`, `CASCADE`, `SET NULL` or `SET DEFAULT`. */
function readAction(action: string): ForeignKeyAction {
  switch (action.toUpperCase()) {
    case 'CASCADE':
      return 'cascade'
    case 'SET NULL':
      return 'set null'
    case 'SET DEFAULT':
      return 'set default'
    default:
      return 'restrict'
  }
}
