import type { ManifestPath } from '../manifest/source-ranges.js'
import type { ApiModel, ResourceModel } from '../model/api-model.js'
import { snakeCase } from '../names/derive-names.js'
import type { ColumnValue } from '../../runtime/contract/table-definition.js'

/**
 * Where a table of the manifest's storage model comes from: what migrations
 * need beyond the snapshot to match it with the previous one (renames) and to
 * word and place their messages (names and manifest paths).
 */
export interface TableOrigin {
  readonly resource: string
  readonly path: ManifestPath
  /** The table's previous name (from the resource's `renamed_from`). */
  readonly renamedFrom: string | null
  /** By column name. */
  readonly columns: ReadonlyMap<string, ColumnOrigin>
}

export interface ColumnOrigin {
  /** What declares the column: a field, a belongs-to relation (its `<name>_id`), `parent:`, or the server. */
  readonly declaredBy: 'field' | 'relation' | 'parent' | 'server'
  /** The field or relation name; the column name for the others. */
  readonly name: string
  readonly path: ManifestPath
  /** The column's previous name. */
  readonly renamedFrom: string | null
  /**
   * The newest version's `add_field` `older_value`: rows already there were
   * written through the older version, so a new NOT NULL column takes it.
   */
  readonly olderValue?: ColumnValue
}

/** The origin of each table of the model, by table name. */
export function listTableOrigins(model: ApiModel): ReadonlyMap<string, TableOrigin> {
  const added = model.versions.at(-1)?.changes.flatMap((change) => (change.kind === 'add_field' ? [change] : [])) ?? []
  return new Map(
    model.resources.map((resource) => {
      const origin = originOf(resource)
      for (const change of added) {
        const column = origin.columns.get(change.field)
        if (change.resource !== resource.name || column === undefined || change.olderValue === null) continue
        origin.columns.set(change.field, { ...column, olderValue: change.olderValue })
      }
      return [resource.table, origin]
    }),
  )
}

function originOf(resource: ResourceModel): TableOrigin & { columns: Map<string, ColumnOrigin> } {
  const path = ['resources', resource.name]
  const columns = new Map<string, ColumnOrigin>()
  for (const field of resource.fields) {
    const renamedFrom = field.renamedFrom
    if (field.serverManaged) {
      columns.set(field.name, { declaredBy: 'server', name: field.name, path, renamedFrom })
    } else if (field.references?.relation != null) {
      const relation = field.references.relation
      columns.set(field.name, {
        declaredBy: 'relation',
        name: relation,
        path: [...path, 'relations', relation],
        renamedFrom,
      })
    } else if (field.references !== null) {
      columns.set(field.name, { declaredBy: 'parent', name: field.name, path: [...path, 'parent'], renamedFrom })
    } else {
      columns.set(field.name, {
        declaredBy: 'field',
        name: field.name,
        path: [...path, 'fields', field.name],
        renamedFrom,
      })
    }
  }
  return {
    resource: resource.name,
    path,
    renamedFrom: resource.renamedFrom === null ? null : snakeCase(resource.renamedFrom),
    columns,
  }
}
