import type { ColumnValue } from '../../contract/table-definition.js'
import type { ColumnTypeMapping } from '../column-type-mapping.js'
import { decodeDecimalKey, encodeDecimalKey } from '../decimal-text.js'

/**
 * SQLite storage classes: booleans are INTEGER 0/1; dates and datetimes are
 * TEXT (datetimes normalized to `toISOString()` form, so text order is time
 * order); decimals are TEXT keys whose text order is their numeric order
 * (encodeDecimalKey), so filters, sorts and indexes stay exact without a
 * function in the query; json and arrays are JSON text.
 */
const SQLITE_TYPES = {
  integer: 'integer',
  number: 'real',
  string: 'text',
  boolean: 'integer',
  date: 'text',
  datetime: 'text',
  decimal: 'text',
  json: 'text',
  array: 'text',
} as const

export const sqliteColumnTypes: ColumnTypeMapping = {
  sqlTypes: SQLITE_TYPES,
  // Introspection reports the declared types back (lower-cased by the reader).
  introspectedTypes: SQLITE_TYPES,
  // AUTOINCREMENT: ids of deleted rows are never handed out again, as in PostgreSQL.
  defineIdColumn: (column) => column.notNull().primaryKey().autoIncrement(),
  encoders: {
    boolean: (value) => (value ? 1 : 0),
    decimal: (value) => encodeDecimalKey(value as string),
    json: (value) => JSON.stringify(value),
    array: (value) => JSON.stringify(value),
  },
  decoders: {
    boolean: (value) => value !== 0,
    decimal: (value, column) => decodeDecimalKey(value as string, column.scale ?? 0),
    json: (value) => JSON.parse(value as string) as ColumnValue,
    array: (value) => JSON.parse(value as string) as ColumnValue,
  },
}
