import type { ColumnType, ColumnValue } from '../table-definition.js'
import type { ValueEncoder } from './value-codec.js'

/**
 * A named placeholder put into a query where a value goes. Kysely passes it
 * through to the compiled query's parameter list untouched, so a query compiled
 * once can be executed again with fresh values bound by name.
 */
export class QueryParameter {
  constructor(
    readonly name: string,
    /** The column type the value is encoded as. */
    readonly type: ColumnType,
  ) {}
}

/** Values for a query's placeholders, by placeholder name. */
export type QueryArguments = Readonly<Record<string, ColumnValue | undefined>>

/** Creates a placeholder for the value named `name`, encoded as `type`. */
export function parameter(name: string, type: ColumnType): QueryParameter {
  return new QueryParameter(name, type)
}

/**
 * Returns the positional values for `placeholders`, encoded for the driver.
 * A placeholder without a value is a bug in the caller, so it throws.
 */
export function bindParameters(
  placeholders: readonly QueryParameter[],
  args: QueryArguments,
  encode: ValueEncoder,
): unknown[] {
  return placeholders.map(({ name, type }) => {
    const value = args[name]
    if (value === undefined) throw new Error(`no value for query parameter "${name}"`)
    return encode(type, value)
  })
}
