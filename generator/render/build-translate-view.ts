import {
  type ApiModel,
  type RelationModel,
  type ResourceModel,
  type StorageMapping,
  type VersionModel,
  findResource,
} from '../model/api-model.js'
import type { FieldColumn, HeaderView, StorageTable, TranslateView } from './template-views.js'

/**
 * What translate.ts.hbs writes for one resource of a version that differs
 * from the storage: `versionModel` holds the version's resources, `mappings`
 * how each reaches the storage (mapVersionStorage), `storageTables` schema.ts's
 * definitions by resource, which `view` refers to when it is the same.
 */
export function buildTranslateView(
  header: HeaderView,
  versionModel: ApiModel,
  version: VersionModel,
  resource: ResourceModel,
  mappings: ReadonlyMap<string, StorageMapping>,
  storageTables: ReadonlyMap<string, StorageTable>,
): TranslateView {
  const mapping = mappingOf(mappings, resource.name)
  const record: FieldColumn[] = resource.fields.map((field) => ({
    field: field.name,
    column: mapping.columns.get(field.name)!,
  }))
  const writable = new Set(resource.fields.filter((field) => !field.serverManaged).map((field) => field.name))
  const aliasOf = (target: string): string | null =>
    target === resource.name ? null : `${findResource(versionModel, target).identifier}Translation`
  const targets = [...new Set(resource.relations.map((relation) => relation.resource))]
  const view = resource.definition
  const stored = storageTables.get(mapping.storage.name)
  const sameAsStorage = stored !== undefined && JSON.stringify(view) === JSON.stringify(stored.definition)
  return {
    ...header,
    resource: resource.name,
    version: version.name,
    view,
    storageTable: sameAsStorage ? stored.constant : null,
    related: targets.flatMap((target) => {
      const alias = aliasOf(target)
      return alias === null ? [] : [{ alias, fileName: target }]
    }),
    writable: record.filter(({ field }) => writable.has(field)),
    record,
    computed: resource.computed.map((field) => field.name),
    olderValues: [...mapping.olderValues].map(([column, value]) => ({ column, value })),
    relations: resource.relations.map((relation) => ({
      name: relation.name,
      storageName: mapping.relations.get(relation.name)!,
      many: relation.kind !== 'belongs-to', // has-many and many-to-many embed arrays
      alias: aliasOf(relation.resource),
    })),
    renames: record.filter(({ field, column }) => field !== column),
    includes: resource.includes
      .map((path) => ({ path, storagePath: storageIncludePath(versionModel, mappings, resource, path) }))
      .filter(({ path, storagePath }) => path !== storagePath),
    listPaths: resource.includes.flatMap((path) => {
      const relation = lastRelationOf(versionModel, resource, path)
      return relation.kind === 'has-many' && relation.listPath !== null ? [{ path, listPath: relation.listPath }] : []
    }),
  }
}

/** The relation an include path ends with. */
function lastRelationOf(versionModel: ApiModel, resource: ResourceModel, path: string): RelationModel {
  let current = resource
  let relation: RelationModel | undefined
  for (const name of path.split('.')) {
    relation = current.relations.find((candidate) => candidate.name === name)!
    current = findResource(versionModel, relation.resource)
  }
  return relation!
}

/** An include path with each relation on its way named as the storage names it. */
function storageIncludePath(
  versionModel: ApiModel,
  mappings: ReadonlyMap<string, StorageMapping>,
  resource: ResourceModel,
  path: string,
): string {
  let current = resource
  return path
    .split('.')
    .map((name) => {
      const storageName = mappingOf(mappings, current.name).relations.get(name)!
      current = findResource(versionModel, current.relations.find((relation) => relation.name === name)!.resource)
      return storageName
    })
    .join('.')
}

function mappingOf(mappings: ReadonlyMap<string, StorageMapping>, resource: string): StorageMapping {
  const mapping = mappings.get(resource)
  if (mapping === undefined) throw new Error(`internal error: no storage mapping for ${resource}`)
  return mapping
}
