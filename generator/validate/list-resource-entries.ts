import { asRecord } from '../manifest/as-record.js'
import type { ManifestPath } from '../manifest/source-ranges.js'

/** One entry of a resource's `fields:` or `relations:`, with what checks need to judge and locate it. */
export interface ListedEntry {
  readonly resource: string
  readonly resourceValue: Readonly<Record<string, unknown>>
  readonly name: string
  /** The entry's options, or null when it is not a map (the schema reports that). */
  readonly options: Readonly<Record<string, unknown>> | null
  readonly path: ManifestPath
}

/**
 * Every field (or relation) of every resource, in manifest order, from data
 * that may not have passed the schema.
 */
export function listResourceEntries(data: unknown, section: 'fields' | 'relations'): ListedEntry[] {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  return Object.entries(resources).flatMap(([resource, value]) => {
    const resourceValue = asRecord(value)
    const entries = asRecord(resourceValue?.[section])
    if (resourceValue === null || entries === null) return []
    return Object.entries(entries).map(([name, options]) => ({
      resource,
      resourceValue,
      name,
      options: asRecord(options),
      path: ['resources', resource, section, name],
    }))
  })
}

/** Every field of every custom operation (`body:`, `query:`, `responds.fields`), in manifest order. */
export function listOperationFields(data: unknown): ListedEntry[] {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  return Object.entries(resources).flatMap(([resource, value]) => {
    const resourceValue = asRecord(value)
    const operations = asRecord(resourceValue?.operations)
    if (resourceValue === null || operations === null) return []
    return Object.entries(operations).flatMap(([operation, operationValue]) => {
      const sections: [ManifestPath, unknown][] = [
        [['body'], asRecord(operationValue)?.body],
        [['query'], asRecord(operationValue)?.query],
        [['responds', 'fields'], asRecord(asRecord(operationValue)?.responds)?.fields],
      ]
      return sections.flatMap(([section, fields]) =>
        Object.entries(asRecord(fields) ?? {}).map(([name, options]) => ({
          resource,
          resourceValue,
          name,
          options: asRecord(options),
          path: ['resources', resource, 'operations', operation, ...section, name],
        })),
      )
    })
  })
}
