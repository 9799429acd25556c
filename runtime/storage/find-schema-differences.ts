import {
  ON_DELETE_ACTIONS,
  onDeleteSql,
  type ColumnDefinition,
  type TableDefinition,
} from '../contract/table-definition.js'
import { sqlTypeOf, type ColumnTypeMapping } from './column-type-mapping.js'
import { readSqlLiteral } from './read-sql-literal.js'
import { createValueEncoder } from './value-codec.js'
import { compareCompositeUniques } from './composite-uniques.js'
import type { ExistingForeignKey, ExistingTable, ExistingUnique } from './storage-dialect.js'

/** What the comparison reads of a table: a TableDefinition, or a migration snapshot's table. */
export interface ComparedTable {
  readonly name: TableDefinition['name']
  readonly columns: readonly ComparedColumn[]
  readonly softDelete?: TableDefinition['softDelete']
}

type ComparedColumn = Pick<ColumnDefinition, 'name' | 'type' | 'nullable' | 'unique' | 'default' | 'references'>

/**
 * Compares an existing table with its definition and returns one human line
 * per difference, each saying how to resolve it: missing columns, extra
 * columns, type and nullability mismatches, then per column a missing or
 * undeclared UNIQUE, a missing or undeclared foreign key, one pointing at
 * another table, or one with another ON DELETE action, then UNIQUE indexes
 * and foreign keys over several columns, expressions or part of the rows,
 * which no manifest declares, and CHECK constraints. Empty when they agree.
 *
 * Constraints are compared by what they enforce, not by name: any
 * single-column, non-partial UNIQUE constraint or unique index makes a column
 * unique; NO ACTION counts as restrict. Columns reported missing or extra are
 * not compared further.
 */
export function findSchemaDifferences(
  table: ComparedTable,
  existing: ExistingTable,
  types: ColumnTypeMapping,
): string[] {
  const prefix = `table "${table.name}": column`
  const existingColumns = new Map(existing.columns.map((column) => [column.name, column]))
  const differences: string[] = []
  const compared: ComparedColumn[] = []
  const encode = createValueEncoder(types)

  for (const column of table.columns) {
    const found = existingColumns.get(column.name)
    const declared = `${column.name}: ${column.type}`
    if (found === undefined) {
      differences.push(`${prefix} "${column.name}" is missing (manifest declares ${declared})`)
      continue
    }
    compared.push(column)
    const foundType = found.dataType.toLowerCase()
    if (foundType !== types.introspectedTypes[column.type]) {
      differences.push(
        `${prefix} "${column.name}" has type ${foundType} in the database, ` +
          `but the manifest declares ${declared} (stored as ${sqlTypeOf(types, column)})`,
      )
    }
    if (found.isNullable !== column.nullable) {
      differences.push(
        `${prefix} "${column.name}" is ${describeNullability(found.isNullable)} in the database, ` +
          `but the manifest makes it ${describeNullability(column.nullable)}`,
      )
    }
    // `id` takes its values from the database's own sequence, whatever its default says.
    if (column.name !== 'id' && !sameDefault(encode(column.type, column.default), found.default)) {
      differences.push(
        `${prefix} "${column.name}" has ${found.default === null ? 'no default' : `DEFAULT ${found.default}`} ` +
          `in the database, but the manifest declares ` +
          `${column.default === null ? 'none' : `default: ${JSON.stringify(column.default)}`}; ` +
          `restore the column's default, or change the manifest`,
      )
    }
  }

  const declaredNames = new Set(table.columns.map((column) => column.name))
  for (const column of existing.columns) {
    if (!declaredNames.has(column.name)) {
      differences.push(`${prefix} "${column.name}" exists in the database but not in the manifest`)
    }
  }

  const { uniqueColumns, otherUniques } = sortUniques(existing.uniques, table.softDelete === true)
  const { byColumn: foreignKeys, otherForeignKeys } = sortForeignKeys(existing.foreignKeys)
  for (const column of compared) {
    differences.push(...compareUnique(prefix, column, uniqueColumns.has(column.name)))
    differences.push(...compareForeignKeys(prefix, column, foreignKeys.get(column.name) ?? []))
  }
  const composite = compareCompositeUniques(table, otherUniques)
  differences.push(...composite.differences)
  for (const unique of composite.undeclared) {
    differences.push(
      `table "${table.name}": the database has a ${unique.partial ? 'partial ' : ''}UNIQUE index ` +
        `"${unique.name}" on ${describeKey(unique.columns)}, which the manifest cannot declare; drop it`,
    )
  }
  for (const foreignKey of otherForeignKeys) {
    differences.push(
      `table "${table.name}": the database has a foreign key on ${describeKey(foreignKey.columns)} ` +
        `referencing ${describeTarget(foreignKey)}, which the manifest cannot declare; drop it`,
    )
  }
  // restmint creates no CHECK: the server's validators hold the manifest's rules, and a write one refuses would fail.
  for (const check of existing.checks) {
    differences.push(
      `table "${table.name}": the database has a CHECK constraint ${check.name === null ? '' : `"${check.name}" `}` +
        `(${check.expression}), which the manifest cannot declare; drop it ` +
        `(declare the rule on the field instead: enum, minimum, maximum, min_length, max_length, pattern)`,
    )
  }
  return differences
}

/**
 * Single-column uniques make their column unique: non-partial ones, or on a
 * soft-deleting table partial ones (their predicate, `deleted_at IS NULL`,
 * is not compared); every other unique is reported on its own.
 */
function sortUniques(uniques: readonly ExistingUnique[], partial: boolean) {
  const uniqueColumns = new Set<string>()
  const otherUniques: ExistingUnique[] = []
  for (const unique of uniques) {
    const [only] = unique.columns
    if (unique.columns.length === 1 && only !== null && only !== undefined && unique.partial === partial)
      uniqueColumns.add(only)
    else otherUniques.push(unique)
  }
  return { uniqueColumns, otherUniques }
}

function sortForeignKeys(foreignKeys: readonly ExistingForeignKey[]) {
  const byColumn = new Map<string, ExistingForeignKey[]>()
  const otherForeignKeys: ExistingForeignKey[] = []
  for (const foreignKey of foreignKeys) {
    const [only] = foreignKey.columns
    if (foreignKey.columns.length !== 1 || only === undefined) {
      otherForeignKeys.push(foreignKey)
      continue
    }
    byColumn.set(only, [...(byColumn.get(only) ?? []), foreignKey])
  }
  return { byColumn, otherForeignKeys }
}

function compareUnique(prefix: string, column: ComparedColumn, unique: boolean): string[] {
  // `id` is the primary key: unique whatever else says so.
  if (column.name === 'id' || unique === column.unique) return []
  return column.unique
    ? [
        `${prefix} "${column.name}" is unique in the manifest, but the database has no UNIQUE constraint on it; ` +
          `add one, or remove unique: true from the manifest`,
      ]
    : [
        `${prefix} "${column.name}" is unique in the database, but not in the manifest; ` +
          `drop the UNIQUE constraint or index, or declare the field unique: true`,
      ]
}

function compareForeignKeys(prefix: string, column: ComparedColumn, found: readonly ExistingForeignKey[]): string[] {
  const references = column.references
  const subject = `${prefix} "${column.name}"`
  if (references === undefined) {
    return found.map(
      (foreignKey) =>
        `${subject} has a foreign key to ${describeTarget(foreignKey)} in the database, ` +
        `but the manifest declares no relation on it; drop the foreign key, or declare the relation`,
    )
  }
  const expected = `"${references.table}"`
  if (found.length === 0) {
    return [
      `${subject} references ${expected} in the manifest, but the database has no foreign key on it; ` +
        `add one (REFERENCES "${references.table}" ("id") ON DELETE ${onDeleteSql(references.onDelete).toUpperCase()}), ` +
        `or remove the relation from the manifest`,
    ]
  }
  const match = found.find(
    (foreignKey) =>
      foreignKey.referencedTable === references.table && (foreignKey.referencedColumns[0] ?? 'id') === 'id',
  )
  const differences: string[] = []
  if (match === undefined) {
    differences.push(
      `${subject} references ${expected} in the manifest but ${describeTarget(found[0]!)} in the database; ` +
        `recreate the foreign key as REFERENCES "${references.table}" ("id"), or change the manifest`,
    )
  } else if (match.onDelete !== onDeleteSql(references.onDelete)) {
    const declarable = ON_DELETE_ACTIONS.find((action) => onDeleteSql(action) === match.onDelete)
    differences.push(
      `${subject} deletes ${references.onDelete} in the manifest but ${match.onDelete} in the database; ` +
        `recreate the foreign key with ON DELETE ${onDeleteSql(references.onDelete).toUpperCase()}` +
        (declarable !== undefined
          ? `, or set on_delete: ${declarable} in the manifest`
          : ` (the manifest cannot declare ${match.onDelete.toUpperCase()})`),
    )
  }
  const reported = match ?? found[0]!
  for (const foreignKey of found) {
    if (foreignKey === reported) continue
    differences.push(`${subject} has a second foreign key in the database, to ${describeTarget(foreignKey)}; drop it`)
  }
  return differences
}

/** `"orders"`, or `"orders"."code"` when the key points at another column than `id`. */
function describeTarget(foreignKey: ExistingForeignKey): string {
  const columns = foreignKey.referencedColumns
  const onId = columns.length === 1 && (columns[0] ?? 'id') === 'id'
  return onId ? `"${foreignKey.referencedTable}"` : `"${foreignKey.referencedTable}" ${describeKey(columns)}`
}

function describeKey(columns: readonly (string | null)[]): string {
  return `(${columns.map((column) => (column === null ? 'an expression' : `"${column}"`)).join(', ')})`
}

function describeNullability(nullable: boolean): string {
  return nullable ? 'nullable' : 'NOT NULL'
}

/** Whether a DEFAULT expression stores `expected` (encoded for the dialect): one of another value, or not a literal, does not. */
function sameDefault(expected: unknown, found: string | null): boolean {
  const value = found === null ? null : readSqlLiteral(found)
  if (value === undefined) return false
  if (expected === null || value === null) return expected === value
  return typeof expected === 'number' ? Number(value) === expected : String(value) === String(expected)
}
