import type { ManifestPath } from '../manifest/source-ranges.js'
import { asRecord } from './as-record.js'

/** One declared field, with what checks need to judge and locate it. */
export interface ListedField {
  readonly resource: string
  readonly resourceValue: Readonly<Record<string, unknown>>
  readonly name: string
  /** The field's options, or null when the field is not a map (the schema reports that). */
  readonly options: Readonly<Record<string, unknown>> | null
  readonly path: ManifestPath
}

/** Every field of every resource, in manifest order, from data that may not have passed the schema. */
export function listFields(data: unknown): ListedField[] {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  return Object.entries(resources).flatMap(([resource, value]) => {
    const resourceValue = asRecord(value)
    const fields = asRecord(resourceValue?.fields)
    if (resourceValue === null || fields === null) return []
    return Object.entries(fields).map(([name, options]) => ({
      resource,
      resourceValue,
      name,
      options: asRecord(options),
      path: ['resources', resource, 'fields', name],
    }))
  })
}
