import { sql, type Compilable, type CreateIndexBuilder, type CreateTableBuilder, type Kysely } from 'kysely'
import { onDeleteSql, type ColumnDefinition, type TableDefinition } from '../contract/table-definition.js'
import { buildLiveUniqueIndex } from './build-live-unique-index.js'
import { nameConstraint, nameIndex } from './constraint-names.js'
import { sqlTypeOf, type ColumnTypeMapping } from './column-type-mapping.js'
import { listCompositeUniques } from './composite-uniques.js'
import type { DialectSyntax } from './storage-dialect.js'
import { createValueEncoder } from './value-codec.js'

/** How CREATE statements are written: prepare() runs them on every start, a migration once. */
export interface CreateOptions {
  /** `IF NOT EXISTS` on every statement (prepare()); a migration states exactly what it creates. */
  readonly ifNotExists: boolean
}

/** An index the storage keeps on a table: one per foreign key column, then the declared ones. */
export interface TableIndex<Column = ColumnDefinition> {
  readonly name: string
  readonly columns: readonly Column[]
  /** A foreign key's index: the bare column, whatever the dialect's index column form. */
  readonly foreignKey: boolean
  /** A composite unique (composite-uniques.ts): UNIQUE, on the bare columns. */
  readonly unique?: true
  /** A composite unique of a soft-deleting table: holds among live rows only (buildLiveUniqueIndex). */
  readonly live?: true
}

/**
 * Builds, in the given order (referenced tables first), CREATE TABLE for
 * each table, then CREATE INDEX for each foreign key column and each of the
 * table's `indexes`. With `ifNotExists` (prepare(), on every start) existing
 * tables and indexes are left as they are, nothing altered or dropped, so an
 * index added to the definition is created on an existing table too.
 */
export function buildCreateStatements(
  db: Kysely<any>,
  tables: readonly TableDefinition[],
  types: ColumnTypeMapping,
  syntax: DialectSyntax,
  options: CreateOptions = { ifNotExists: true },
): Compilable[] {
  return tables.flatMap((table) => [
    buildCreateTable(db, table, table.name, types, options),
    ...listLiveUniqueIndexes(db, table, table.name, options),
    ...listTableIndexes(table).map((index) => buildCreateIndex(db, table.name, index, syntax, options)),
  ])
}

/**
 * The unique indexes of a soft-deleting table (buildLiveUniqueIndex), which
 * stand for the UNIQUE constraints buildCreateTable leaves out: named like
 * them (`<table>_<column>_key`), so a violation is traced to its column alike.
 */
export function listLiveUniqueIndexes(
  db: Kysely<any>,
  table: TableDefinition,
  tableName: string,
  options: CreateOptions,
): Compilable[] {
  if (table.softDelete !== true) return []
  return table.columns
    .filter((column) => column.unique)
    .map((column) =>
      buildLiveUniqueIndex(
        db,
        tableName,
        nameConstraint(table.name, column.name, 'key'),
        [column.name],
        options.ifNotExists,
      ),
    )
}

/**
 * CREATE TABLE `name` with the columns, defaults and named constraints of
 * `table`. The constraint names always derive from `table.name`, so a table
 * built under a temporary name (SQLite's rebuild) already has its final ones.
 */
export function buildCreateTable(
  db: Kysely<any>,
  table: TableDefinition,
  name: string,
  types: ColumnTypeMapping,
  options: CreateOptions,
): CreateTableBuilder<string, string> {
  const encode = createValueEncoder(types)
  let createTable: CreateTableBuilder<string, string> = db.schema.createTable(name)
  if (options.ifNotExists) createTable = createTable.ifNotExists()
  for (const column of table.columns) {
    createTable = createTable.addColumn(column.name, sqlTypeOf(types, column), (builder) => {
      if (column.name === 'id') return types.defineIdColumn(builder)
      // The default also applies to rows written outside the API; literals are inlined, escaped by Kysely.
      const withDefault =
        column.default === null ? builder : builder.defaultTo(sql.lit(encode(column.type, column.default)))
      return column.nullable ? withDefault : withDefault.notNull()
    })
  }
  // Named constraints let a driver error that names only the constraint be traced to its column.
  for (const column of table.columns) {
    // A soft-deleting table's uniques hold among live rows only: partial indexes (listLiveUniqueIndexes).
    if (column.unique && table.softDelete !== true) {
      createTable = createTable.addUniqueConstraint(nameConstraint(table.name, column.name, 'key'), [column.name])
    }
    const references = column.references
    if (references) {
      createTable = createTable.addForeignKeyConstraint(
        nameConstraint(table.name, column.name, 'fkey'),
        [column.name],
        references.table,
        ['id'],
        (constraint) => constraint.onDelete(onDeleteSql(references.onDelete)),
      )
    }
  }
  return createTable
}

/** CREATE INDEX for one of listTableIndexes(table) on the table `tableName`. */
export function buildCreateIndex(
  db: Kysely<any>,
  tableName: string,
  index: TableIndex,
  syntax: DialectSyntax,
  options: CreateOptions,
): CreateIndexBuilder {
  let createIndex = db.schema.createIndex(index.name)
  if (options.ifNotExists) createIndex = createIndex.ifNotExists()
  if (index.unique) {
    const columns = index.columns.map((column) => column.name)
    if (index.live) return buildLiveUniqueIndex(db, tableName, index.name, columns, options.ifNotExists)
    return createIndex.unique().on(tableName).columns(columns)
  }
  const on = createIndex.on(tableName)
  if (index.foreignKey) return on.column(index.columns[0]!.name)
  return on.expression(sql.join(index.columns.map((column) => syntax.indexColumn(column))))
}

/**
 * The table's indexes: one per foreign key column, then the declared ones,
 * each column once, without duplicates, without the bare primary key and
 * without one whose name a foreign key's index already has (the same single
 * column), then the composite uniques (on a soft-deleting table among live
 * rows only, like its single-column ones). Throws for a column the table lacks.
 */
export function listTableIndexes<Column extends Pick<ColumnDefinition, 'name' | 'references'>>(
  table: Pick<TableDefinition, 'name' | 'indexes' | 'uniques' | 'softDelete'> & { readonly columns: readonly Column[] },
): TableIndex<Column>[] {
  const columns = new Map(table.columns.map((column) => [column.name, column]))
  const indexes: TableIndex<Column>[] = table.columns
    .filter((column) => column.references !== undefined)
    .map((column) => ({ name: nameConstraint(table.name, column.name, 'idx'), columns: [column], foreignKey: true }))
  const seen = new Set(indexes.map((index) => index.name))
  for (const index of table.indexes ?? []) {
    const names = [...new Set(index.columns)]
    const name = nameIndex(table.name, names)
    if (names.length === 0 || names.join(',') === 'id' || seen.has(name)) continue
    seen.add(name)
    indexes.push({
      name,
      foreignKey: false,
      columns: names.map((columnName) => {
        const column = columns.get(columnName)
        if (column === undefined) throw new Error(`index on "${table.name}" names unknown column "${columnName}"`)
        return column
      }),
    })
  }
  for (const unique of listCompositeUniques(table)) {
    indexes.push({
      name: unique.name,
      foreignKey: false,
      unique: true,
      ...(table.softDelete === true ? { live: true as const } : {}),
      columns: unique.columns.map((columnName) => {
        const column = columns.get(columnName)
        if (column === undefined) throw new Error(`unique on "${table.name}" names unknown column "${columnName}"`)
        return column
      }),
    })
  }
  return indexes
}
