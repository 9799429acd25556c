import type { ColumnDataType, ColumnDefinitionBuilder } from 'kysely'
import type { FieldType } from '../contract/field-type.js'
import type { ColumnDefinition, ColumnValue } from '../contract/table-definition.js'

/** How a dialect stores each manifest column type. */
export interface ColumnTypeMapping {
  /** The type written in CREATE TABLE (sqlTypeOf adds a decimal's precision and scale). */
  readonly sqlTypes: Readonly<Record<FieldType, ColumnDataType>>
  /** The type name introspection reports for a column created with `sqlTypes` (lower case). */
  readonly introspectedTypes: Readonly<Record<FieldType, string>>
  /** Declares `id` as the auto-assigned integer primary key. */
  defineIdColumn(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder
  /** Converts a non-null JS value to what the driver binds, for types that need it. */
  readonly encoders: Readonly<Partial<Record<FieldType, (value: Exclude<ColumnValue, null>) => unknown>>>
  /** Converts a non-null value read from the driver to its JS value, for types that need it. */
  readonly decoders: Readonly<
    Partial<Record<FieldType, (value: unknown, column: Pick<ColumnDefinition, 'scale'>) => ColumnValue>>
  >
}

/**
 * The SQL type of `column` in CREATE TABLE and ALTER TABLE: NUMERIC(p,s) for
 * a decimal where the dialect has it, so the database holds exactly what the
 * field declares.
 */
export function sqlTypeOf(
  mapping: ColumnTypeMapping,
  column: Pick<ColumnDefinition, 'type' | 'precision' | 'scale'>,
): ColumnDataType {
  const type = mapping.sqlTypes[column.type]
  if (type !== 'numeric' || column.precision === undefined) return type
  return `numeric(${column.precision}, ${column.scale ?? 0})`
}
