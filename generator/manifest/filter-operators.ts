import type { FieldType, FilterOperator } from './manifest.js'

const COMPARISONS: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in']

/**
 * The operators that fit each field type, in the order documentation lists
 * them. A field without `filter:` gets all of its type's; declaring one that
 * is not listed here is FILTER_OPERATOR.
 */
export const FILTER_OPERATORS: Readonly<Record<FieldType, readonly FilterOperator[]>> = {
  string: [...COMPARISONS, 'contains', 'starts_with', 'null'],
  integer: [...COMPARISONS, 'null'],
  number: [...COMPARISONS, 'null'],
  date: [...COMPARISONS, 'null'],
  datetime: [...COMPARISONS, 'null'],
  boolean: ['eq', 'ne', 'null'],
}

/** What a foreign key (parent key, `<relation>_id`) is filterable with by default: ranges of ids mean nothing. */
export const FOREIGN_KEY_OPERATORS: readonly FilterOperator[] = ['eq', 'ne', 'in', 'null']
