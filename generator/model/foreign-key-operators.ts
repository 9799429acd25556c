import type { FilterOperator } from '../../runtime/contract/filter-operator.js'

/** What a foreign key (parent key, `<relation>_id`) is filterable with by default: ranges of ids mean nothing. */
export const FOREIGN_KEY_OPERATORS: readonly FilterOperator[] = ['eq', 'ne', 'in', 'null']
