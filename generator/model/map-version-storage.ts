import type { StorageNames } from '../versions/build-storage.js'
import type { ResourceModel, StorageMapping, VersionModel } from './api-model.js'

/**
 * Per resource of a version (`resources`), how it reaches the storage
 * (`storage`, the storage's resources), by where the storage keeps the
 * version's names (`toStorage`, derived with the versions). Null when some
 * field or relation of the version has no storage counterpart (a has-many of
 * a removed resource): the version is then documented but not served.
 */
export function mapVersionStorage(
  storage: readonly ResourceModel[],
  resources: readonly ResourceModel[],
  toStorage: StorageNames,
): Map<string, StorageMapping> | null {
  const mappings = new Map<string, StorageMapping>()
  for (const resource of resources) {
    const names = toStorage.get(resource.name)
    const stored = names && storage.find((candidate) => candidate.name === names.resource)
    if (!names || !stored) return null
    const mapping: StorageMapping = {
      storage: stored,
      columns: new Map(resource.fields.map((field) => [field.name, names.columns.get(field.name) ?? field.name])),
      olderValues: names.olderValues,
      relations: new Map(
        resource.relations.flatMap((relation) => {
          const storageName = names.relations.get(relation.name)
          return storageName === undefined ? [] : [[relation.name, storageName] as const]
        }),
      ),
    }
    if (!reachesStorage(mapping, resource)) return null
    mappings.set(resource.name, mapping)
  }
  return mappings
}

/** Whether `version` reaches the storage with no translation at all: same names, same columns, same relations. */
export function isIdentityMapping(mappings: ReadonlyMap<string, StorageMapping>, version: VersionModel): boolean {
  return version.resources.every((resource) => {
    const { storage, columns, olderValues, relations } = mappings.get(resource.name)!
    return (
      storage.name === resource.name &&
      storage.fields.length === columns.size &&
      storage.relations.length === relations.size &&
      olderValues.size === 0 &&
      [...columns, ...relations].every(([name, target]) => name === target)
    )
  })
}

/** Whether every field and relation of `resource` has its column and relation in the storage. */
function reachesStorage({ storage, columns, relations }: StorageMapping, resource: ResourceModel): boolean {
  const storageColumns = new Set(storage.fields.map((field) => field.name))
  const storageRelations = new Set(storage.relations.map((relation) => relation.name))
  return (
    columns.size === resource.fields.length &&
    relations.size === resource.relations.length &&
    [...columns.values()].every((column) => storageColumns.has(column)) &&
    [...relations.values()].every((relation) => storageRelations.has(relation))
  )
}
