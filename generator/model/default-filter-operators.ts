import { OPERATORS_BY_FIELD_TYPE, type FilterOperator } from '../../runtime/contract/filter-operator.js'
import { isServerManagedField, type ServerManagedField } from '../../runtime/contract/field-type.js'
import type { FieldModel } from './api-model.js'

/** What a foreign key (parent key, `<relation>_id`) is filterable with by default: ranges of ids mean nothing. */
export const FOREIGN_KEY_OPERATORS: readonly FilterOperator[] = ['eq', 'ne', 'in', 'null']

/**
 * Server-managed fields by default: `id` exactly (`?id=`) or as a batch
 * (`filter[id][in]=1,2,3`), timestamps exactly or as ranges ("changed
 * since"). Neither `ne`, id ranges nor lists of timestamps find anything a
 * client looks for.
 */
const SERVER_MANAGED_OPERATORS: Readonly<Record<ServerManagedField, readonly FilterOperator[]>> = {
  id: ['eq', 'in'],
  created_at: ['eq', 'gt', 'gte', 'lt', 'lte'],
  updated_at: ['eq', 'gt', 'gte', 'lt', 'lte'],
}

/**
 * The operators a field is filterable with when its resource has no
 * `filter:`: those of its type (foreign keys and server-managed fields
 * fewer), and `null` only where NULL can be stored.
 */
export function defaultFilterOperators(field: FieldModel): readonly FilterOperator[] {
  const operators = isServerManagedField(field.name)
    ? SERVER_MANAGED_OPERATORS[field.name]
    : field.references
      ? FOREIGN_KEY_OPERATORS
      : OPERATORS_BY_FIELD_TYPE[field.type]
  return field.storedNullable ? operators : operators.filter((operator) => operator !== 'null')
}
