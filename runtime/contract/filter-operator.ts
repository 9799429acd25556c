import type { FieldType } from './field-type.js'

/** Every filter operator (`filter[field][op]`), in the order documentation lists them. */
export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'starts_with', 'null'] as const

export type FilterOperator = (typeof FILTER_OPERATORS)[number]

/** Operators matching text case-insensitively; their operand is any text, and only string fields take them. */
export type TextMatchOperator = Extract<FilterOperator, 'contains' | 'starts_with'>

const COMPARISONS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] as const satisfies readonly FilterOperator[]

/**
 * The operators that fit each field type, in documentation order: a field
 * without `filter:` gets all of its type's, and one that is not listed here
 * is refused.
 */
export const OPERATORS_BY_FIELD_TYPE: Readonly<Record<FieldType, readonly FilterOperator[]>> = {
  string: [...COMPARISONS, 'contains', 'starts_with', 'null'],
  integer: [...COMPARISONS, 'null'],
  number: [...COMPARISONS, 'null'],
  date: [...COMPARISONS, 'null'],
  datetime: [...COMPARISONS, 'null'],
  boolean: ['eq', 'ne', 'null'],
  decimal: [...COMPARISONS, 'null'],
  // A document has no order, and comparing its text would depend on key order and spacing: presence only.
  json: ['null'],
  array: ['null'],
}

/**
 * What one operand of `operator` holds: `presence` a boolean (true for IS
 * NULL), `text` any string, `list` comma-separated values of the field
 * (within its enum), `value` one value of the field (within its enum),
 * `bound` one value of the field's type and format, which a range compares
 * with, so not limited to its enum.
 */
export type OperandKind = 'presence' | 'text' | 'list' | 'value' | 'bound'

export function operandKindOf(operator: FilterOperator): OperandKind {
  if (operator === 'null') return 'presence'
  if (isTextMatchOperator(operator)) return 'text'
  if (operator === 'in') return 'list'
  return operator === 'eq' || operator === 'ne' ? 'value' : 'bound'
}

export function isTextMatchOperator(operator: FilterOperator): operator is TextMatchOperator {
  return operator === 'contains' || operator === 'starts_with'
}
