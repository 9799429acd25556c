import type { AggregateFunction } from './aggregate-function.js'
import type { FieldType } from './field-type.js'

/**
 * How one aggregate's result travels from the database to JSON:
 * - `exact`: computed exactly and read as text, answered as a JSON string of
 *   its digits (a sum of integers may pass 2^53, where a JSON number would
 *   round; a decimal type's sums and averages belong here too);
 * - `float`: read as a double, answered as a JSON number (averages, and sums
 *   of floating point numbers, which are approximate anyway);
 * - `column`: a value of the field itself (min, max), decoded as the column is.
 */
export type AggregateResultKind = 'exact' | 'float' | 'column'

/**
 * The result kind of each function each field type takes
 * (AGGREGATES_BY_FIELD_TYPE): a new field type gets its row here, where
 * the compiler asks for it.
 */
export const AGGREGATE_RESULT_KINDS: Readonly<
  Record<FieldType, Readonly<Partial<Record<AggregateFunction, AggregateResultKind>>>>
> = {
  integer: { sum: 'exact', avg: 'float', min: 'column', max: 'column' },
  number: { sum: 'float', avg: 'float', min: 'column', max: 'column' },
  string: { min: 'column', max: 'column' },
  date: { min: 'column', max: 'column' },
  datetime: { min: 'column', max: 'column' },
  boolean: {},
  // Exact on every dialect, the average rounded to the field's scale (DialectSyntax.decimalAggregate).
  decimal: { sum: 'exact', avg: 'exact', min: 'column', max: 'column' },
  json: {},
  array: {},
}

/** The result kind of `fn` over a field of `type`; throws for a pair the manifest cannot whitelist. */
export function aggregateResultKind(type: FieldType, fn: AggregateFunction): AggregateResultKind {
  const kind = AGGREGATE_RESULT_KINDS[type][fn]
  if (kind === undefined) throw new Error(`internal error: ${fn} does not apply to ${type} columns`)
  return kind
}
