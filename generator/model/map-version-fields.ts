import type { ColumnValue } from '../../runtime/table-definition.js'
import type { ApiModel, VersionModel } from './api-model.js'
import type { VersionChangeKind } from './version-change.js'

/** The change kinds an older version's routes translate at the edge; a version behind any other is not served. */
export const TRANSLATED_CHANGE_KINDS: ReadonlySet<VersionChangeKind> = new Set(['rename_field', 'add_field'])

/** How one resource of an older version reaches the storage's table. */
export interface FieldMapping {
  /** Each of the version's fields → the storage column holding it. */
  readonly columns: ReadonlyMap<string, string>
  /** Storage columns the version does not have → what rows it creates get there (the changes' `older_value`). */
  readonly olderValues: ReadonlyMap<string, ColumnValue>
}

/**
 * Per resource, how `version`'s fields map to the storage's columns: the
 * newest version's fields are the columns, and each newer version's changes,
 * applied backwards from the newest, rename or hide them. Null when a change
 * on the way is of a kind not translated yet (TRANSLATED_CHANGE_KINDS).
 */
export function mapVersionFields(model: ApiModel, version: VersionModel): Map<string, FieldMapping> | null {
  const newer = model.versions.slice(model.versions.indexOf(version) + 1)
  const changes = newer.flatMap((newerVersion) => newerVersion.changes)
  if (changes.some((change) => !TRANSLATED_CHANGE_KINDS.has(change.kind))) return null
  const mappings = new Map(
    model.resources.map((resource) => {
      const columns = new Map(resource.fields.map((field) => [field.name, field.name]))
      return [resource.name, { columns, olderValues: new Map<string, ColumnValue>() }]
    }),
  )
  for (const newerVersion of newer.reverse()) {
    for (const change of newerVersion.changes) {
      if (change.kind !== 'rename_field' && change.kind !== 'add_field') continue
      const mapping = mappings.get(change.resource)
      const field = change.kind === 'rename_field' ? change.to : change.field
      const column = mapping?.columns.get(field)
      if (!mapping || column === undefined) continue
      mapping.columns.delete(field)
      if (change.kind === 'rename_field') mapping.columns.set(change.from, column)
      else if (change.olderValue !== null) mapping.olderValues.set(column, change.olderValue)
    }
  }
  return mappings
}
