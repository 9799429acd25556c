import type { ColumnDataType, ColumnDefinitionBuilder } from 'kysely'
import type { FieldType } from '../contract/field-type.js'
import type { ColumnValue } from '../contract/table-definition.js'

/** How a dialect stores each manifest column type. */
export interface ColumnTypeMapping {
  /** The type written in CREATE TABLE. */
  readonly sqlTypes: Readonly<Record<FieldType, ColumnDataType>>
  /** The type name introspection reports for a column created with `sqlTypes` (lower case). */
  readonly introspectedTypes: Readonly<Record<FieldType, string>>
  /** Declares `id` as the auto-assigned integer primary key. */
  defineIdColumn(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder
  /** Converts a non-null JS value to what the driver binds, for types that need it. */
  readonly encoders: Readonly<Partial<Record<FieldType, (value: Exclude<ColumnValue, null>) => unknown>>>
  /** Converts a non-null value read from the driver to its JS value, for types that need it. */
  readonly decoders: Readonly<Partial<Record<FieldType, (value: unknown) => ColumnValue>>>
}
