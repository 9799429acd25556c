import { MAX_INDEXED_TEXT_BYTES } from '../contract/max-indexed-text-bytes.js'
import type { ColumnDefinition, TableDefinition } from '../contract/table-definition.js'

/** A string column some index covers, and how long its values may be. */
export interface IndexedTextLimit {
  readonly column: ColumnDefinition
  readonly maxBytes: number
}

/**
 * The string columns of `table` that a unique constraint or a declared index
 * covers, each limited to MAX_INDEXED_TEXT_BYTES shared evenly among the
 * string columns of its widest index.
 */
export function listIndexedTextLimits(table: TableDefinition): IndexedTextLimit[] {
  const columns = new Map(table.columns.map((column) => [column.name, column]))
  const sharing = new Map<string, number>()
  const cover = (names: readonly string[]) => {
    const strings = [...new Set(names)].filter((name) => columns.get(name)?.type === 'string')
    for (const name of strings) sharing.set(name, Math.max(sharing.get(name) ?? 0, strings.length))
  }
  for (const column of table.columns) if (column.unique) cover([column.name])
  for (const index of table.indexes ?? []) cover(index.columns)
  return [...sharing].map(([name, count]) => ({
    column: columns.get(name)!,
    maxBytes: Math.floor(MAX_INDEXED_TEXT_BYTES / count),
  }))
}

/** The reason InvalidValueError gives for a value over `maxBytes`. */
export function describeIndexedTextLimit(maxBytes: number): string {
  return `must be at most ${maxBytes} bytes long (UTF-8), as the field is indexed`
}
