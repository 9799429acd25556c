import {
  AGGREGATE_FUNCTIONS,
  AGGREGATE_QUERY_NAMES,
  AGGREGATES_BY_FIELD_TYPE,
  GROUPABLE_FIELD_TYPES,
} from '../../runtime/contract/aggregate-function.js'
import { FIELD_TYPES, type FieldType } from '../../runtime/contract/field-type.js'
import { RESERVED_QUERY_NAMES } from '../../runtime/contract/query-rules.js'
import { asRecord } from '../manifest/as-record.js'
import type { SourceRange } from '../manifest/source-ranges.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'
import { listResourceFields, type ResourceField } from './list-resource-fields.js'

const KNOWN_TYPES: readonly unknown[] = FIELD_TYPES
const EVERY_FUNCTION: readonly unknown[] = AGGREGATE_FUNCTIONS
/** The aggregates route's own query names; the ones lists take too are FIELD_RESERVED already. */
const QUERY_NAMES: readonly string[] = AGGREGATE_QUERY_NAMES.filter(
  (name) => !(RESERVED_QUERY_NAMES as readonly string[]).includes(name),
)

/**
 * `aggregate:` of each resource, a whitelist like `filter:`:
 * AGGREGATE_UNKNOWN_FIELD for a `group_by` entry or `functions` key that is
 * not a field, AGGREGATE_GROUP_TYPE for a grouping field of a type that does
 * not group, AGGREGATE_FUNCTION for a function its field's type does not
 * take, AGGREGATE_FIELD_TWICE for a field both grouped and aggregated (a
 * group's response names each field once), AGGREGATE_FIELD_NAME for a field
 * that an exact filter could not name on the aggregates route. Unknown
 * functions and bad `groups_max` values are the schema check's.
 */
export function checkAggregates(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const [name, value] of Object.entries(resources)) {
    const aggregate = asRecord(asRecord(value)?.aggregate)
    if (aggregate === null) continue
    const fields = listResourceFields(resources, name)
    const path = ['resources', name, 'aggregate']
    const groupBy = Array.isArray(aggregate.group_by) ? aggregate.group_by : []
    groupBy.forEach((fieldName: unknown, index) => {
      if (typeof fieldName !== 'string') return
      const at = context.atValue([...path, 'group_by', index])
      const field = findField(context, fields, fieldName, name, 'group_by', at)
      if (field === undefined || !isKnownType(field.type) || GROUPABLE_FIELD_TYPES.includes(field.type)) return
      context.report(
        'AGGREGATE_GROUP_TYPE',
        `group_by field "${fieldName}" of resource "${name}" has type ${field.type}, which does not group; ` +
          `group by ${GROUPABLE_FIELD_TYPES.join(', ')} fields` +
          (field.type === 'datetime' ? ' (a date field groups by day)' : ''),
        at,
      )
    })
    for (const [fieldName, functions] of Object.entries(asRecord(aggregate.functions) ?? {})) {
      const at = context.atKey([...path, 'functions', fieldName])
      const field = findField(context, fields, fieldName, name, 'functions', at)
      if (field === undefined) continue
      if (groupBy.includes(fieldName)) {
        context.report(
          'AGGREGATE_FIELD_TWICE',
          `field "${fieldName}" of resource "${name}" is both in aggregate.group_by and aggregate.functions; ` +
            'a group names its grouping values and its aggregates by field, so keep it in one of them',
          at,
        )
      }
      if (!isKnownType(field.type) || !Array.isArray(functions)) continue
      const allowed = AGGREGATES_BY_FIELD_TYPE[field.type]
      functions.forEach((fn: unknown, index) => {
        if (typeof fn !== 'string' || !EVERY_FUNCTION.includes(fn) || (allowed as readonly string[]).includes(fn))
          return
        context.report(
          'AGGREGATE_FUNCTION',
          `function "${fn}" does not apply to field "${fieldName}" of resource "${name}", which has type ${field.type}; ` +
            (allowed.length > 0
              ? `${field.type} fields take ${allowed.join(', ')}`
              : `${field.type} fields take none (each group counts its records anyway)`),
          context.atValue([...path, 'functions', fieldName, index]),
        )
      })
    }
    for (const field of fields) {
      if (!QUERY_NAMES.includes(field.name)) continue
      context.report(
        'AGGREGATE_FIELD_NAME',
        `field "${field.name}" of resource "${name}" is named like a query parameter of its aggregates route ` +
          `(${QUERY_NAMES.join(', ')}), so an exact filter could not name it there; rename the field, or remove aggregate:`,
        context.atKey(path),
      )
    }
  }
}

function findField(
  context: CheckContext,
  fields: readonly ResourceField[],
  fieldName: string,
  resource: string,
  list: string,
  at: SourceRange,
): ResourceField | undefined {
  const field = fields.find((candidate) => candidate.name === fieldName)
  if (field !== undefined) return field
  const names = fields.map((candidate) => candidate.name)
  context.report(
    'AGGREGATE_UNKNOWN_FIELD',
    `aggregate.${list} names ${JSON.stringify(fieldName)}, which is not a field of resource "${resource}"${hintUnknownName(fieldName, names, 'its fields')}`,
    at,
  )
  return undefined
}

function isKnownType(type: unknown): type is FieldType {
  return KNOWN_TYPES.includes(type)
}
