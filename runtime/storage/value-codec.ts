import type { ColumnType, ColumnValue, Row, TableDefinition } from '../table-definition.js'
import { normalizeDatetime } from './normalize-datetime.js'
import type { ColumnTypeMapping } from './storage-dialect.js'

/** Converts a JS value of a column type to what the driver binds. */
export type ValueEncoder = (type: ColumnType, value: ColumnValue) => unknown

/** Converts a row as the driver returns it into decoded JS values, in place. */
export type RowDecoder = (row: Record<string, unknown>) => Row

/**
 * Creates the encoder for a dialect: datetimes are normalized to UTC for every
 * dialect, then the dialect's own encoders apply (e.g. SQLite booleans → 0/1).
 */
export function createValueEncoder(mapping: ColumnTypeMapping): ValueEncoder {
  return (type, value) => {
    if (value === null) return null
    const normalized = type === 'datetime' ? normalizeDatetime(value) : value
    const encode = mapping.encoders[type]
    return encode === undefined ? normalized : encode(normalized)
  }
}

/**
 * Creates the decoder for one table's rows. Only columns whose type the dialect
 * decodes are touched, so a table without such columns costs nothing.
 */
export function createRowDecoder(table: TableDefinition, mapping: ColumnTypeMapping): RowDecoder {
  const decoded = table.columns.flatMap((column) => {
    const decode = mapping.decoders[column.type]
    return decode === undefined ? [] : [{ name: column.name, decode }]
  })
  if (decoded.length === 0) return (row) => row as Row
  return (row) => {
    for (const { name, decode } of decoded) {
      const value = row[name]
      if (value !== null && value !== undefined) row[name] = decode(value)
    }
    return row as Row
  }
}
