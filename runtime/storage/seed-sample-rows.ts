import { sortTablesByDependency } from './sort-tables-by-dependency.js'
import type { Storage } from './storage.js'
import { MissingReferenceError, UniqueViolationError } from './storage-errors.js'
import type { ColumnDefinition, ColumnValue, Row, TableDefinition } from '../contract/table-definition.js'

const ROWS_PER_TABLE = 3

/**
 * Fills empty tables with a few rows made up from the column definitions
 * (types, enums, formats, defaults), so a freshly started example API has
 * something to show. A table stops being seeded at the first made-up row the
 * database refuses (a duplicate in a `unique` column, say); a table whose
 * foreign keys have nothing to point at is left empty.
 */
export async function seedSampleRows(storage: Storage, tables: readonly TableDefinition[]): Promise<void> {
  const ids = new Map<string, number[]>()
  for (const table of sortTablesByDependency(tables)) {
    const { rows } = await storage.list(table, { rowFilter: {}, limit: ROWS_PER_TABLE, offset: 0 })
    if (rows.length > 0) {
      ids.set(
        table.name,
        rows.map((row) => Number(row.id)),
      )
      continue
    }
    const inserted: number[] = []
    for (let index = 0; index < ROWS_PER_TABLE; index++) {
      const row = sampleRow(table, index, ids)
      if (!row) break
      try {
        inserted.push(Number((await storage.insert(table, row)).id))
      } catch (error) {
        if (error instanceof UniqueViolationError || error instanceof MissingReferenceError) break
        throw error
      }
    }
    ids.set(table.name, inserted)
  }
}

function sampleRow(table: TableDefinition, index: number, ids: ReadonlyMap<string, number[]>): Row | null {
  const row: Row = {}
  for (const column of table.columns) {
    if (column.readOnly || column.owner) continue
    const value = sampleValue(table, column, index, ids)
    if (value === undefined) return null
    row[column.name] = value
  }
  return row
}

function sampleValue(
  table: TableDefinition,
  column: ColumnDefinition,
  index: number,
  ids: ReadonlyMap<string, number[]>,
): ColumnValue | undefined {
  if (column.references) {
    const candidates = ids.get(column.references.table) ?? []
    return candidates.length > 0 ? candidates[index % candidates.length] : undefined
  }
  const number = index + 1
  if (column.enum) return column.enum[index % column.enum.length]
  if (column.format) return SAMPLE_FORMATS[column.format](number)
  switch (column.type) {
    case 'boolean':
      return index % 2 === 0
    case 'integer':
    case 'number':
      return column.default !== null && !column.unique ? column.default : number * (column.type === 'number' ? 10.5 : 1)
    case 'date':
      return `2026-01-0${number}`
    case 'datetime':
      return `2026-01-0${number}T12:00:00.000Z`
    case 'string':
      return `${table.singular} ${column.name.replaceAll('_', ' ')} ${number}`
  }
}

const SAMPLE_FORMATS = {
  email: (number: number) => `sample${number}@example.com`,
  uri: (number: number) => `https://example.com/samples/${number}`,
  uuid: (number: number) => `00000000-0000-4000-8000-00000000000${number}`,
}
