import type { FieldType } from '../../runtime/contract/field-type.js'
import { FILTER_OPERATORS, OPERATORS_BY_FIELD_TYPE } from '../../runtime/contract/filter-operator.js'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'
import { listResourceFields } from './list-resource-fields.js'

const EVERY_OPERATOR: readonly string[] = FILTER_OPERATORS

/**
 * `filter:` of each resource: FILTER_UNKNOWN_FIELD for a key that is not a
 * field (at the key), FILTER_OPERATOR for an operator its field's type does
 * not take (at the operator). Operators that do not exist at all, and fields
 * whose type is broken, are the schema check's.
 */
export function checkFilters(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const [name, value] of Object.entries(resources)) {
    const filter = asRecord(asRecord(value)?.filter)
    if (filter === null) continue
    const fields = listResourceFields(resources, name)
    const names = fields.map((field) => field.name)
    for (const [fieldName, operators] of Object.entries(filter)) {
      const path = ['resources', name, 'filter', fieldName]
      const type = fields.find((field) => field.name === fieldName)?.type
      if (type === undefined) {
        context.report(
          'FILTER_UNKNOWN_FIELD',
          `filter field ${JSON.stringify(fieldName)} of resource "${name}" is not one of its fields${hintUnknownName(fieldName, names, 'its fields')}`,
          context.atKey(path),
        )
        continue
      }
      if (typeof type !== 'string' || !Object.hasOwn(OPERATORS_BY_FIELD_TYPE, type) || !Array.isArray(operators))
        continue
      const allowed: readonly string[] = OPERATORS_BY_FIELD_TYPE[type as FieldType]
      operators.forEach((operator: unknown, index) => {
        if (typeof operator !== 'string' || allowed.includes(operator) || !EVERY_OPERATOR.includes(operator)) return
        context.report(
          'FILTER_OPERATOR',
          `operator "${operator}" does not apply to field "${fieldName}" of resource "${name}", which has type ${type}; ${type} fields take ${allowed.join(', ')}`,
          context.atValue([...path, index]),
        )
      })
    }
  }
}
