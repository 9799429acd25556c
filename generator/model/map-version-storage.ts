import type { ColumnValue } from '../../runtime/contract/table-definition.js'
import { withoutIdSuffix } from '../names/without-id-suffix.js'
import type { ApiModel, ResourceModel, VersionModel } from './api-model.js'
import { findResource } from './find-resource.js'
import type { VersionChange } from './version-change.js'

/** How one resource of a version reaches the storage. */
export interface StorageMapping {
  /** The storage's resource holding it (its table). */
  readonly storage: ResourceModel
  /** Each of the version's fields → the storage column holding it. */
  readonly columns: ReadonlyMap<string, string>
  /** Storage columns the version does not have → what rows it creates get there (the changes' `older_value`). */
  readonly olderValues: ReadonlyMap<string, ColumnValue>
  /** Each of the version's relations → the storage relation embedding the same records. */
  readonly relations: ReadonlyMap<string, string>
}

/**
 * Per resource of `version`, how it reaches the storage (the newest version's
 * resources plus what older versions still use, build-storage-resources.ts):
 * the newest version's names are the storage's, and each newer version's
 * changes, applied backwards from the newest, rename, hide or bring back
 * fields, relations and resources. Null when some field or relation of the
 * version has no storage counterpart (a has-many of a removed resource): the
 * version is then documented but not served.
 */
export function mapVersionStorage(model: ApiModel, version: VersionModel): Map<string, StorageMapping> | null {
  const newest = model.versions.at(-1)!
  let mappings: Map<string, StorageMapping> | null = new Map(
    newest.resources.map((resource) => [resource.name, sameNames(findResource(model, resource.name), resource)]),
  )
  for (let index = model.versions.length - 1; model.versions[index] !== version && mappings !== null; index--) {
    const newer = model.versions[index]!
    mappings = mapOlderVersion(model, mappings, newer, model.versions[index - 1]!)
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

/** The mappings of `older` from those of `newer`, the next newer version, undoing `newer`'s changes; null when one does not reach the storage. */
function mapOlderVersion(
  model: ApiModel,
  newerMappings: ReadonlyMap<string, StorageMapping>,
  newer: VersionModel,
  older: VersionModel,
): Map<string, StorageMapping> | null {
  const { changes } = newer
  const newerNameOf = new Map(
    changes.flatMap((change) => (change.kind === 'rename_resource' ? [[change.from, change.to] as const] : [])),
  )
  const mappings = new Map<string, StorageMapping>()
  for (const resource of older.resources) {
    const removed = changes.some((change) => change.kind === 'remove_resource' && change.resource === resource.name)
    const newerName = newerNameOf.get(resource.name) ?? resource.name
    const mapping = removed ? mapRetiredResource(model, resource) : newerMappings.get(newerName)
    if (!mapping) return null
    const columns = new Map(mapping.columns)
    const olderValues = new Map(mapping.olderValues)
    const relations = new Map(mapping.relations)
    if (!removed) applyFieldChanges(changes, newerName, columns, olderValues)
    for (const change of changes) {
      if (change.kind !== 'rename_resource' || removed) continue
      renameResourceMentions(resource, newer, older, change, columns, relations)
    }
    const mapped = {
      storage: mapping.storage,
      columns: keepOnly(columns, resource.fields),
      olderValues,
      relations: keepOnly(relations, resource.relations),
    }
    if (!reachesStorage(mapped, resource)) return null
    mappings.set(resource.name, mapped)
  }
  return mappings
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

/** A resource a newer version removed: its retired table names everything as it does. */
function mapRetiredResource(model: ApiModel, resource: ResourceModel): StorageMapping | undefined {
  const storage = model.resources.find((candidate) => candidate.name === resource.name)
  return storage && sameNames(storage, resource)
}

/** `resource` in `storage`, every field and relation under its own name. */
function sameNames(storage: ResourceModel, resource: ResourceModel): StorageMapping {
  const same = (names: readonly { name: string }[]) => new Map(names.map(({ name }) => [name, name]))
  return { storage, columns: same(resource.fields), olderValues: new Map(), relations: same(resource.relations) }
}

/** Field renames, removals and additions of `resource` (named as the newer version names it), backwards. */
function applyFieldChanges(
  changes: readonly VersionChange[],
  resource: string,
  columns: Map<string, string>,
  olderValues: Map<string, ColumnValue>,
): void {
  for (const change of changes) {
    if (!('resource' in change) || change.resource !== resource) continue
    if (change.kind === 'rename_field') moveKey(columns, change.to, change.from)
    // The retired column keeps the name the older version gives it (build-storage-resources.ts).
    else if (change.kind === 'remove_field') columns.set(change.field, change.field)
    else if (change.kind === 'add_field') {
      const column = columns.get(change.field)
      columns.delete(change.field)
      if (column !== undefined && change.olderValue !== null) olderValues.set(column, change.olderValue)
    }
  }
}

/**
 * A renamed resource renames what is named after it (apply-changes-backwards.ts):
 * keys pointing at it (`writer_id` → `author_id`) and relations embedding it
 * (`writer` → `author`, `writers` → `authors`), where the older version has them.
 */
function renameResourceMentions(
  resource: ResourceModel,
  newer: VersionModel,
  older: VersionModel,
  change: Extract<VersionChange, { kind: 'rename_resource' }>,
  columns: Map<string, string>,
  relations: Map<string, string>,
): void {
  const newerKey = newer.resources.find((candidate) => candidate.name === change.to)?.idParam
  const olderKey = older.resources.find((candidate) => candidate.name === change.from)?.idParam
  if (newerKey === undefined || olderKey === undefined) return
  if (resource.fields.some((field) => field.name === olderKey)) moveKey(columns, newerKey, olderKey)
  const renamedRelations = [
    [withoutIdSuffix(newerKey), withoutIdSuffix(olderKey)],
    [change.to.replaceAll('-', '_'), change.from.replaceAll('-', '_')],
  ]
  for (const [newerName, olderName] of renamedRelations) {
    const relation = resource.relations.find((candidate) => candidate.name === olderName)
    if (relation?.resource === change.from) moveKey(relations, newerName!, olderName!)
  }
}

function moveKey<T>(map: Map<string, T>, from: string, to: string): void {
  const value = map.get(from)
  if (value === undefined) return
  map.delete(from)
  map.set(to, value)
}

/** The entries of `map` the version has, in its order. */
function keepOnly<T>(map: ReadonlyMap<string, T>, names: readonly { name: string }[]): Map<string, T> {
  return new Map(names.flatMap(({ name }) => (map.has(name) ? [[name, map.get(name)!] as const] : [])))
}
