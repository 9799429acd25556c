import type {
  ExistingCheck,
  ExistingForeignKey,
  ExistingTable,
  ExistingUnique,
  ForeignKeyAction,
} from './storage-dialect.js'

/** One column of an existing table, as a dialect's introspection reads it. */
export interface ColumnRow {
  readonly table: string
  readonly column: string
  readonly type: string
  readonly nullable: boolean
  readonly default: string | null
}

/** One key column of a UNIQUE constraint or unique index; rows of one come in key order. */
export interface UniqueRow {
  readonly table: string
  readonly name: string
  readonly partial: boolean
  /** Null for an expression. */
  readonly column: string | null
}

/** One column pair of a foreign key; rows of one come in key order. */
export interface ForeignKeyRow {
  readonly table: string
  readonly name: string
  readonly column: string
  readonly referencedTable: string
  readonly referencedColumn: string | null
  readonly onDelete: ForeignKeyAction
}

/** One index of a table that is neither unique nor the primary key's. */
export interface IndexRow {
  readonly table: string
  readonly name: string
}

/** One CHECK constraint of a table. */
export interface CheckRow extends ExistingCheck {
  readonly table: string
}

/**
 * Groups introspection rows into tables, in the order their columns come;
 * uniques, foreign keys, checks and indexes of tables without columns rows are dropped.
 */
export function assembleExistingTables(
  columns: readonly ColumnRow[],
  uniques: readonly UniqueRow[],
  foreignKeys: readonly ForeignKeyRow[],
  checks: readonly CheckRow[],
  indexes: readonly IndexRow[],
): ExistingTable[] {
  const tables = new Map<
    string,
    {
      name: string
      columns: ExistingTable['columns'][number][]
      uniques: Map<string, { name: string; columns: (string | null)[]; partial: boolean }>
      foreignKeys: Map<
        string,
        {
          name: string
          columns: string[]
          referencedTable: string
          referencedColumns: (string | null)[]
          onDelete: ForeignKeyAction
        }
      >
    }
  >()
  for (const row of columns) {
    let table = tables.get(row.table)
    if (table === undefined) {
      table = { name: row.table, columns: [], uniques: new Map(), foreignKeys: new Map() }
      tables.set(row.table, table)
    }
    table.columns.push({ name: row.column, dataType: row.type, isNullable: row.nullable, default: row.default })
  }
  for (const row of uniques) {
    const table = tables.get(row.table)
    if (table === undefined) continue
    let unique = table.uniques.get(row.name)
    if (unique === undefined) {
      unique = { name: row.name, columns: [], partial: row.partial }
      table.uniques.set(row.name, unique)
    }
    unique.columns.push(row.column)
  }
  for (const row of foreignKeys) {
    const table = tables.get(row.table)
    if (table === undefined) continue
    let foreignKey = table.foreignKeys.get(row.name)
    if (foreignKey === undefined) {
      const { name, referencedTable, onDelete } = row
      foreignKey = { name, columns: [], referencedTable, referencedColumns: [], onDelete }
      table.foreignKeys.set(row.name, foreignKey)
    }
    foreignKey.columns.push(row.column)
    foreignKey.referencedColumns.push(row.referencedColumn)
  }
  return [...tables.values()].map((table) => ({
    name: table.name,
    columns: table.columns,
    uniques: [...table.uniques.values()] satisfies ExistingUnique[],
    foreignKeys: [...table.foreignKeys.values()] satisfies ExistingForeignKey[],
    checks: checks
      .filter((check) => check.table === table.name)
      .map(({ name, expression }): ExistingCheck => ({ name, expression })),
    indexes: indexes
      .filter((index) => index.table === table.name)
      .map((index) => index.name)
      .sort(),
  }))
}
