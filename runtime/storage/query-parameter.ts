import type { FieldType } from '../contract/field-type.js'
import type { ColumnValue } from '../contract/table-definition.js'
import { RejectedValue } from './rejected-value.js'
import { InvalidValueError } from './storage-errors.js'
import type { ValueEncoder } from './value-codec.js'

/**
 * A named placeholder put into a query where a value goes. Kysely passes it
 * through to the compiled query's parameter list untouched, so a query compiled
 * once can be executed again with fresh values bound by name.
 */
export class QueryParameter {
  constructor(
    readonly name: string,
    /** The column type the value (each value, for a list) is encoded as. */
    readonly type: FieldType,
    /**
     * Stands for a whole list of values bound as ONE parameter (see
     * DialectSyntax.inList), so the SQL does not depend on the list's length.
     */
    readonly list = false,
    /**
     * The column the value is for, named by InvalidValueError when the value
     * is refused; undefined for values that are not a column's (LIMIT, OFFSET).
     */
    readonly column?: string,
  ) {}
}

/** Values for a query's placeholders, by placeholder name: an array for a list placeholder. */
export type QueryArguments = Readonly<Record<string, ColumnValue | readonly ColumnValue[] | undefined>>

/** Creates a placeholder for the value named `name`, encoded as `type`, for `column` (if any). */
export function parameter(name: string, type: FieldType, column?: string): QueryParameter {
  return new QueryParameter(name, type, false, column)
}

/** Creates a placeholder for a list of values named `name`, each encoded as `type`, for `column`. */
export function listParameter(name: string, type: FieldType, column: string): QueryParameter {
  return new QueryParameter(name, type, true, column)
}

/** How bound values are encoded: one value, and a list placeholder's encoded values. */
export interface ParameterEncoding {
  readonly encode: ValueEncoder
  readonly bindList: (values: unknown[]) => unknown
}

/**
 * Returns the positional values for `placeholders`, encoded for the driver.
 * A value the encoder refuses throws InvalidValueError naming `table` and the
 * placeholder's column. A placeholder without a value, or a list where one
 * value belongs (or the reverse), is a bug in the caller, so it throws Error.
 */
export function bindParameters(
  placeholders: readonly QueryParameter[],
  args: QueryArguments,
  encoding: ParameterEncoding,
  table: string,
): unknown[] {
  const bound = new Array<unknown>(placeholders.length)
  let index = 0
  try {
    for (; index < placeholders.length; index++) {
      const { name, type, list } = placeholders[index]!
      const value = args[name]
      if (value === undefined) throw new Error(`no value for query parameter "${name}"`)
      // An array field's one value is an array too.
      if (list ? !Array.isArray(value) : Array.isArray(value) && type !== 'array') {
        throw new Error(`query parameter "${name}" takes ${list ? 'an array of values' : 'one value, not an array'}`)
      }
      bound[index] = list
        ? encoding.bindList((value as readonly ColumnValue[]).map((item) => encoding.encode(type, item)))
        : encoding.encode(type, value as ColumnValue)
    }
  } catch (error) {
    if (!(error instanceof RejectedValue)) throw error
    const { name, column } = placeholders[index]!
    if (column === undefined) throw new Error(`query parameter "${name}" ${error.reason}`)
    throw new InvalidValueError(table, column, error.reason)
  }
  return bound
}
