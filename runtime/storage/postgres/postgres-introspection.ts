import { sql, type Kysely } from 'kysely'
import { runRawQuery } from '../run-raw-query.js'
import {
  assembleExistingTables,
  type CheckRow,
  type ColumnRow,
  type ForeignKeyRow,
  type IndexRow,
  type UniqueRow,
} from '../assemble-existing-tables.js'
import type { ExistingTable, ForeignKeyAction, SqlExecutor } from '../storage-dialect.js'

/**
 * The base tables of `schema` with their columns (type as pg_type.typname),
 * UNIQUE constraints and unique indexes (pg_index, the primary key left out;
 * a UNIQUE constraint is backed by one), foreign keys (pg_constraint,
 * contype 'f'), CHECK constraints (contype 'c') and the names of the other indexes. Kysely's introspector reads every schema of the database and
 * calls has_schema_privilege() on each by name, which fails when another
 * client drops a schema meanwhile (parallel test runs do); this reads only ours,
 * through `executor` (prepare's transaction, see StorageDialect.lockNamespace).
 */
export async function readPostgresTables(
  executor: SqlExecutor,
  db: Kysely<any>,
  schema: string,
): Promise<ExistingTable[]> {
  const columns = await runRawQuery(
    executor,
    db,
    sql<{ table: string; column: string; type: string; not_null: boolean; default: string | null }>`
    select c.relname as "table", a.attname as "column", t.typname as "type", a.attnotnull as "not_null",
      pg_catalog.pg_get_expr(d.adbin, d.adrelid) as "default"
    from pg_catalog.pg_attribute a
    left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    join pg_catalog.pg_class c on a.attrelid = c.oid
    join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
    join pg_catalog.pg_type t on a.atttypid = t.oid
    where ns.nspname = ${schema} and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`,
  )
  const uniques = await runRawQuery(
    executor,
    db,
    sql<UniqueRow>`
    select c.relname as "table", i.relname as "name", ix.indpred is not null as "partial", a.attname as "column"
    from pg_catalog.pg_index ix
    join pg_catalog.pg_class c on ix.indrelid = c.oid
    join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
    join pg_catalog.pg_class i on ix.indexrelid = i.oid
    cross join lateral unnest(ix.indkey::int2[]) with ordinality as k(attnum, position)
    left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum and k.attnum > 0
    where ns.nspname = ${schema} and ix.indisunique and not ix.indisprimary and k.position <= ix.indnkeyatts
    order by c.relname, i.relname, k.position`,
  )
  const foreignKeys = await runRawQuery(
    executor,
    db,
    sql<{
      table: string
      name: string
      column: string
      referenced_table: string
      referenced_column: string
      on_delete: string
    }>`
    select c.relname as "table", con.conname as "name", a.attname as "column",
      case when fns.nspname = ${schema} then f.relname::text else fns.nspname || '.' || f.relname end
        as "referenced_table",
      fa.attname as "referenced_column", con.confdeltype as "on_delete"
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on con.conrelid = c.oid
    join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
    join pg_catalog.pg_class f on con.confrelid = f.oid
    join pg_catalog.pg_namespace fns on f.relnamespace = fns.oid
    cross join lateral unnest(con.conkey, con.confkey) with ordinality as k(attnum, referenced_attnum, position)
    join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
    join pg_catalog.pg_attribute fa on fa.attrelid = con.confrelid and fa.attnum = k.referenced_attnum
    where ns.nspname = ${schema} and con.contype = 'f'
    order by c.relname, con.conname, k.position`,
  )
  const indexes = await runRawQuery(
    executor,
    db,
    sql<IndexRow>`
    select c.relname as "table", i.relname as "name"
    from pg_catalog.pg_index ix
    join pg_catalog.pg_class c on ix.indrelid = c.oid
    join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
    join pg_catalog.pg_class i on ix.indexrelid = i.oid
    where ns.nspname = ${schema} and not ix.indisunique and not ix.indisprimary`,
  )
  const checks = await runRawQuery(
    executor,
    db,
    sql<CheckRow>`
    select c.relname as "table", con.conname as "name", pg_catalog.pg_get_constraintdef(con.oid) as "expression"
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on con.conrelid = c.oid
    join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
    where ns.nspname = ${schema} and con.contype = 'c'
    order by c.relname, con.conname`,
  )
  return assembleExistingTables(
    columns.map((row): ColumnRow => ({
      table: row.table,
      column: row.column,
      type: row.type,
      nullable: !row.not_null,
      default: row.default,
    })),
    uniques,
    foreignKeys.map((row): ForeignKeyRow => ({
      table: row.table,
      name: row.name,
      column: row.column,
      referencedTable: row.referenced_table,
      referencedColumn: row.referenced_column,
      onDelete: readAction(row.on_delete),
    })),
    checks,
    indexes,
  )
}

/** pg_constraint.confdeltype: `a` no action, `r` restrict, `c` cascade, `n` set null, `d` set default. */
function readAction(action: string): ForeignKeyAction {
  switch (action) {
    case 'c':
      return 'cascade'
    case 'n':
      return 'set null'
    case 'd':
      return 'set default'
    default:
      return 'restrict'
  }
}
