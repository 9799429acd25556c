import type { ColumnTypeMapping } from '../column-type-mapping.js'

/**
 * SQLite storage classes: booleans are INTEGER 0/1; dates and datetimes are
 * TEXT (datetimes normalized to `toISOString()` form, so text order is time order).
 */
const SQLITE_TYPES = {
  integer: 'integer',
  number: 'real',
  string: 'text',
  boolean: 'integer',
  date: 'text',
  datetime: 'text',
} as const

export const sqliteColumnTypes: ColumnTypeMapping = {
  sqlTypes: SQLITE_TYPES,
  // Introspection reports the declared types back (lower-cased by the reader).
  introspectedTypes: SQLITE_TYPES,
  // AUTOINCREMENT: ids of deleted rows are never handed out again, as in PostgreSQL.
  defineIdColumn: (column) => column.notNull().primaryKey().autoIncrement(),
  encoders: { boolean: (value) => (value ? 1 : 0) },
  decoders: { boolean: (value) => value !== 0 },
}
