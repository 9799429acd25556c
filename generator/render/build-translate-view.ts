import type { ApiModel, ResourceModel, VersionModel } from '../model/api-model.js'
import { findResource } from '../model/find-resource.js'
import type { FieldMapping } from '../model/map-version-fields.js'
import { buildTableDefinition } from './build-table-definition.js'
import type { FieldColumn, HeaderView, TranslateView } from './template-views.js'

/**
 * What translate.ts.hbs writes for one resource of an older version:
 * `versionModel` holds the version's resources, `mapping` how its fields
 * reach the storage's columns (mapVersionFields).
 */
export function buildTranslateView(
  header: HeaderView,
  versionModel: ApiModel,
  version: VersionModel,
  resource: ResourceModel,
  mapping: FieldMapping,
): TranslateView {
  const record: FieldColumn[] = resource.fields.map((field) => ({
    field: field.name,
    column: columnOf(mapping, resource, field.name),
  }))
  const writable = new Set(resource.fields.filter((field) => !field.readOnly).map((field) => field.name))
  const aliasOf = (target: string): string | null =>
    target === resource.name ? null : `${findResource(versionModel, target).identifier}Translation`
  const targets = [...new Set(resource.relations.map((relation) => relation.resource))]
  return {
    ...header,
    resource: resource.name,
    version: version.name,
    view: buildTableDefinition(resource, versionModel),
    related: targets.flatMap((target) => {
      const alias = aliasOf(target)
      return alias === null ? [] : [{ alias, fileName: target }]
    }),
    writable: record.filter(({ field }) => writable.has(field)),
    record,
    olderValues: [...mapping.olderValues].map(([column, value]) => ({ column, value })),
    relations: resource.relations.map((relation) => ({
      name: relation.name,
      many: relation.kind === 'has-many',
      alias: aliasOf(relation.resource),
    })),
    renames: record.filter(({ field, column }) => field !== column),
  }
}

function columnOf(mapping: FieldMapping, resource: ResourceModel, field: string): string {
  const column = mapping.columns.get(field)
  if (column === undefined) throw new Error(`internal error: no storage column for ${resource.name}.${field}`)
  return column
}
