import type { TableMetadata } from 'kysely'
import type { TableDefinition } from '../table-definition.js'
import type { ColumnTypeMapping } from './storage-dialect.js'

/**
 * Compares an existing table with its definition and returns one human line
 * per difference: missing columns, extra columns, type and nullability
 * mismatches. Empty when they agree.
 */
export function findSchemaDifferences(
  table: TableDefinition,
  existing: TableMetadata,
  types: ColumnTypeMapping,
): string[] {
  const prefix = `table "${table.name}": column`
  const existingColumns = new Map(existing.columns.map((column) => [column.name, column]))
  const differences: string[] = []

  for (const column of table.columns) {
    const found = existingColumns.get(column.name)
    const declared = `${column.name}: ${column.type}`
    if (found === undefined) {
      differences.push(`${prefix} "${column.name}" is missing (manifest declares ${declared})`)
      continue
    }
    const foundType = found.dataType.toLowerCase()
    if (foundType !== types.introspectedTypes[column.type]) {
      differences.push(
        `${prefix} "${column.name}" has type ${foundType} in the database, ` +
          `but the manifest declares ${declared} (stored as ${types.sqlTypes[column.type]})`,
      )
    }
    if (found.isNullable !== column.nullable) {
      differences.push(
        `${prefix} "${column.name}" is ${describeNullability(found.isNullable)} in the database, ` +
          `but the manifest makes it ${describeNullability(column.nullable)}`,
      )
    }
  }

  const declaredNames = new Set(table.columns.map((column) => column.name))
  for (const column of existing.columns) {
    if (!declaredNames.has(column.name)) {
      differences.push(`${prefix} "${column.name}" exists in the database but not in the manifest`)
    }
  }
  return differences
}

function describeNullability(nullable: boolean): string {
  return nullable ? 'nullable' : 'NOT NULL'
}
