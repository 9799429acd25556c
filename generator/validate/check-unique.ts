import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'
import { listResourceFields } from './list-resource-fields.js'

/**
 * `unique:` of each resource: UNIQUE_UNKNOWN_FIELD at each name that is not
 * one of the resource's fields (foreign keys included). Lists of the wrong
 * shape are the schema check's.
 */
export function checkUnique(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const [name, value] of Object.entries(resources)) {
    const unique = asRecord(value)?.unique
    if (!Array.isArray(unique)) continue
    const names = listResourceFields(resources, name).map((field) => field.name)
    unique.forEach((fields: unknown, listIndex) => {
      if (!Array.isArray(fields)) return
      fields.forEach((field: unknown, index) => {
        if (typeof field !== 'string' || names.includes(field)) return
        context.report(
          'UNIQUE_UNKNOWN_FIELD',
          `unique field ${JSON.stringify(field)} of resource "${name}" is not one of its fields${hintUnknownName(field, names, 'its fields')}`,
          context.atValue(['resources', name, 'unique', listIndex, index]),
        )
      })
    })
  }
}
