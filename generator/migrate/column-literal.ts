import { sql, type RawBuilder } from 'kysely'
import type { SnapshotColumn } from '../../runtime/migrations/storage-snapshot.js'
import type { ColumnTypeMapping } from '../../runtime/storage/column-type-mapping.js'
import { createValueEncoder } from '../../runtime/storage/value-codec.js'
import type { ColumnValue } from '../../runtime/contract/table-definition.js'

/**
 * A value of the column's type as an SQL literal, in the form the runtime
 * stores it (SQLite booleans 0/1, datetimes in UTC), escaped by Kysely.
 */
export function columnLiteral(
  types: ColumnTypeMapping,
  column: SnapshotColumn,
  value: ColumnValue,
): RawBuilder<unknown> {
  return sql.lit(createValueEncoder(types)(column.type, value))
}
