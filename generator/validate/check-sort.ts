import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'
import { listResourceFields } from './list-resource-fields.js'

/**
 * SORT_UNKNOWN_FIELD: every `sort:` entry is a field of its resource
 * (declared or generated: `created_at`, foreign keys...), at the entry.
 */
export function checkSort(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const [name, value] of Object.entries(resources)) {
    const sort = asRecord(value)?.sort
    if (!Array.isArray(sort)) continue
    const fields = listResourceFields(resources, name).map((field) => field.name)
    sort.forEach((entry: unknown, index) => {
      if (typeof entry !== 'string' || fields.includes(entry)) return
      context.report(
        'SORT_UNKNOWN_FIELD',
        `sort field ${JSON.stringify(entry)} of resource "${name}" is not one of its fields${hintUnknownName(entry, fields, 'its fields')}`,
        context.atValue(['resources', name, 'sort', index]),
      )
    })
  }
}
