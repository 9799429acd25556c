import type { FieldType } from './field-type.js'

/** Every aggregate function (`aggregate[field]=sum,avg`), in the order documentation lists them. */
export const AGGREGATE_FUNCTIONS = ['sum', 'avg', 'min', 'max'] as const

export type AggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number]

/**
 * The functions that fit each field type: sums and averages of numbers,
 * minimum and maximum of anything ordered. A booleans' minimum says little,
 * so it has none. A type added here must also get a result formatter
 * (runtime/contract/aggregate-result-kind.ts): the record makes the compiler ask.
 */
export const AGGREGATES_BY_FIELD_TYPE: Readonly<Record<FieldType, readonly AggregateFunction[]>> = {
  integer: ['sum', 'avg', 'min', 'max'],
  number: ['sum', 'avg', 'min', 'max'],
  string: ['min', 'max'],
  date: ['min', 'max'],
  datetime: ['min', 'max'],
  boolean: [],
  decimal: ['sum', 'avg', 'min', 'max'],
  json: [],
  array: [],
}

/**
 * The field types a `group_by` may name: values that repeat, so groups are
 * few. Not `number` (floating point equality is accidental) nor `datetime`
 * (nearly every row its own group).
 */
export const GROUPABLE_FIELD_TYPES: readonly FieldType[] = ['string', 'integer', 'boolean', 'date']

/** What the manifest's `aggregate:` allows, in the version's names (QueryRules.aggregate). */
export interface AggregateRules {
  /** Fields clients may group by, in the manifest's order: `?group_by=status,author_id`. */
  readonly groupBy: readonly string[]
  /** Field → the functions clients may ask of it: `?aggregate[price]=sum,avg`. */
  readonly functions: Readonly<Record<string, readonly AggregateFunction[]>>
  /** The most groups one request computes: the largest `per_page` of the aggregates route. */
  readonly groupsMax: number
}

/** The query parameters of an aggregates route besides the exact filters (`?<field>=`), in message order. */
export const AGGREGATE_QUERY_NAMES = ['group_by', 'aggregate', 'filter', 'per_page', 'cursor'] as const
