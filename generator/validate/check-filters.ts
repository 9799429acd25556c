import type { FieldType } from '../../runtime/contract/field-type.js'
import { FILTER_OPERATORS, OPERATORS_BY_FIELD_TYPE } from '../../runtime/contract/filter-operator.js'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'
import { listResourceFields } from './list-resource-fields.js'
import { DEFAULT_LIMITS } from '../../runtime/contract/api-limits.js'

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
      const across = fieldName.includes('.') ? followFilterPath(data, name, fieldName) : null
      if (typeof across === 'string') {
        context.report('FILTER_PATH', across, context.atKey(path))
        continue
      }
      const type = across ? across.type : fields.find((field) => field.name === fieldName)?.type
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

/**
 * A filter across relations (`tags.name`, `author.company.name`) followed
 * from resource `start`: the type of the field it ends at, or why it cannot
 * be followed (FILTER_PATH). Each relation path must be in `include:`; a
 * has-many or many-to-many only alone (`tags.name`); belongs-to chains up to
 * `limits.include_depth` relations. Unknown targets are left to other checks
 * (undefined type).
 */
function followFilterPath(data: unknown, start: string, path: string): { type: unknown } | string {
  const manifest = asRecord(data)
  const resources = asRecord(manifest?.resources) ?? {}
  const declaredDepth = asRecord(manifest?.limits)?.include_depth
  const maxDepth = Number.isInteger(declaredDepth) ? Number(declaredDepth) : DEFAULT_LIMITS.include_depth
  const segments = path.split('.')
  const relationSegments = segments.slice(0, -1)
  const field = segments.at(-1)!
  const label = `filter path "${path}" of resource "${start}"`
  if (relationSegments.length > maxDepth) {
    return `${label} follows ${relationSegments.length} relations, more than limits.include_depth (${maxDepth}); filter on "${relationSegments.slice(0, maxDepth).join('.')}.<field>", or raise limits.include_depth`
  }
  const include = asRecord(resources[start])?.include
  const relationPath = relationSegments.join('.')
  if (!Array.isArray(include) || !include.includes(relationPath)) {
    return `${label} goes through "${relationPath}", which include: of "${start}" does not list; add "${relationPath}" to include: (clients filter only through relations they may see)`
  }
  let current = start
  for (const [index, segment] of relationSegments.entries()) {
    const relation = asRecord(asRecord(asRecord(resources[current])?.relations)?.[segment])
    const target = relation?.resource
    if (typeof target !== 'string' || !Object.hasOwn(resources, target)) return { type: undefined }
    if (relation?.many === true && relationSegments.length > 1) {
      return `${label} goes through "${segment}", a ${relation.through === undefined ? 'has-many' : 'many-to-many'} relation, and ${index === 0 ? 'then further' : 'after another relation'}; a has-many or many-to-many is filtered on one level only: "${segment}.<field>" on resource "${current}"`
    }
    current = target
  }
  const fields = listResourceFields(resources, current)
  const found = fields.find((candidate) => candidate.name === field)
  if (found === undefined) {
    return `${label} ends at "${field}", which is not a field of "${current}"${hintUnknownName(
      field,
      fields.map((candidate) => candidate.name),
      'its fields',
    )}`
  }
  return { type: found.type }
}
