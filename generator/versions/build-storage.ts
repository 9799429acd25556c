import type { ColumnValue } from '../../runtime/contract/table-definition.js'
import type { Manifest, ManifestField, ManifestRelation, ManifestResource } from '../manifest/manifest.js'
import { foreignKeyOf, withoutIdSuffix } from '../names/derive-names.js'
import type { NamesToNewer, ResourceNamesToNewer } from './apply-changes-backwards.js'
import type { VersionChange } from './version-change.js'

type Resources = Record<string, ManifestResource>

/**
 * The storage's resources, in the manifest's form: the newest version's, plus
 * what only older versions still use. Every version listed in `versions:` is
 * live, so a field a newer version removed stays a column of its table, and a
 * removed resource stays a table, until its version leaves `versions:` (then
 * `migrate create` drops them, with `--allow-data-loss`). The newest version's
 * renames (`rename_field`, `rename_resource`, and what is named after a
 * renamed resource) are storage renames, declared as `renamed_from` unless
 * the manifest declares one itself. A removed name a newer version uses again
 * is a collision and keeps the newer one. Also where the storage keeps each
 * version's names (`toStorage`, by the versions' order): the newest version's
 * names are the storage's, and each older version's follow its names to the
 * newer one's (`toNewer`).
 */
export function buildStorage(
  manifest: Manifest,
  versions: readonly {
    readonly name: string
    readonly changes: readonly VersionChange[]
    readonly resources: Readonly<Resources>
    readonly toNewer: NamesToNewer | null
  }[],
): { storage: Resources; toStorage: StorageNames[]; collisions: StorageCollision[] } {
  const resources = structuredClone(manifest.resources) as Resources
  const collisions: StorageCollision[] = []
  const newest = versions.length - 1
  const toStorage: StorageNames[] = []
  toStorage[newest] = new Map(Object.entries(resources).map(([name, resource]) => [name, sameNames(name, resource)]))
  const beforeNewest = versions[newest - 1]?.toNewer
  if (beforeNewest) markStorageRenames(resources, beforeNewest)
  for (let index = newest; index > 0; index--) {
    const { name, changes } = versions[index]!
    const older = versions[index - 1]!
    const newerStorage = toStorage[index]!
    changes.forEach((change, at) => {
      if (change.kind !== 'remove_field') return
      const storageName = newerStorage.get(change.resource)?.resource ?? ''
      const table = resources[storageName]
      if (!table) return
      if (table.fields?.[change.field]) collisions.push({ version: name, change: at, table: storageName })
      else table.fields = { ...table.fields, [change.field]: retiredField(change.was) }
    })
    const olderStorage = new Map<string, ResourceStorageNames>()
    for (const [olderName, names] of older.toNewer!) {
      const newerNames = names.name === null ? undefined : newerStorage.get(names.name)
      if (newerNames) olderStorage.set(olderName, followToNewer(names, newerNames, changes))
    }
    changes.forEach((change, at) => {
      if (change.kind !== 'remove_resource') return
      if (resources[change.resource]) return collisions.push({ version: name, change: at, table: change.resource })
      resources[change.resource] = retiredResource(older.resources, change.resource, olderStorage)
    })
    for (const [olderName, names] of older.toNewer!) {
      if (names.name === null) olderStorage.set(olderName, sameNames(olderName, older.resources[olderName]!))
    }
    toStorage[index - 1] = olderStorage
  }
  return { storage: resources, toStorage, collisions }
}

/**
 * Where the storage keeps each of a version's resources, by the version's
 * names: a version names what the storage holds differently, hides it, or
 * lacks it.
 */
export type StorageNames = ReadonlyMap<string, ResourceStorageNames>

export interface ResourceStorageNames {
  /** The storage's resource (its table). */
  readonly resource: string
  /** Field → its column; a field not listed keeps its name (the server's, the owner's). */
  readonly columns: ReadonlyMap<string, string>
  /** Relation → the storage relation embedding the same records; a relation not listed has none. */
  readonly relations: ReadonlyMap<string, string>
  /** Storage columns the version does not have → what rows it creates get there (the changes' `older_value`). */
  readonly olderValues: ReadonlyMap<string, ColumnValue>
}

/**
 * A removed field or resource whose name a newer version gave to something
 * else (a field removed in v2 and added again in v3): the storage would hold
 * both in one column or table.
 */
export interface StorageCollision {
  /** The version whose change removed it. */
  readonly version: string
  /** The index of that change in the version's `changes`. */
  readonly change: number
  /** The storage table the name collides in. */
  readonly table: string
}

/** A resource the storage holds under its own names: the newest version's, and a retired one. */
function sameNames(name: string, resource: ManifestResource): ResourceStorageNames {
  const relations = Object.keys(resource.relations ?? {})
  return {
    resource: name,
    columns: new Map(),
    relations: new Map(relations.map((relation) => [relation, relation])),
    olderValues: new Map(),
  }
}

/**
 * An older resource's storage names, through what the newer version calls it
 * (`names`) and where the storage keeps that (`newer`). A field the newer
 * version removed keeps its retired column, named as the older version names
 * it; a field the newer version added gets its `older_value` in rows the
 * older version creates.
 */
function followToNewer(
  names: ResourceNamesToNewer,
  newer: ResourceStorageNames,
  changes: readonly VersionChange[],
): ResourceStorageNames {
  const columnOf = (field: string) => newer.columns.get(field) ?? field
  const olderValues = new Map(newer.olderValues)
  for (const change of changes) {
    if (change.kind === 'add_field' && change.resource === names.name && change.olderValue !== null)
      olderValues.set(columnOf(change.field), change.olderValue)
  }
  return {
    resource: newer.resource,
    columns: new Map(
      [...names.fields].map(([field, newerName]) => [field, newerName === null ? field : columnOf(newerName)]),
    ),
    relations: new Map(
      [...names.relations].flatMap(([relation, newerName]) => {
        const storageName = newerName === null ? undefined : newer.relations.get(newerName)
        return storageName === undefined ? [] : [[relation, storageName] as const]
      }),
    ),
    olderValues,
  }
}

/** The renames between the version before the newest and the newest as `renamed_from`s: `migrate create` renames rather than drops and adds. */
function markStorageRenames(resources: Resources, toNewest: NamesToNewer): void {
  for (const [olderName, names] of toNewest) {
    const resource = names.name === null ? undefined : resources[names.name]
    if (!resource) continue
    if (names.name !== olderName) resource.renamed_from ??= olderName
    for (const [field, newerName] of names.fields) {
      const declared = newerName === null || newerName === field ? undefined : resource.fields?.[newerName]
      if (declared) declared.renamed_from ??= field
    }
    for (const [relation, newerName] of names.relations) {
      const renamed = newerName === null || newerName === relation ? undefined : resource.relations?.[newerName]
      // A belongs-to's key is its column; a has-many has none to rename.
      if (renamed && renamed.many !== true) renamed.renamed_from ??= relation
    }
  }
}

/** A removed field's column: newer versions' creates leave it to its default, or NULL. */
function retiredField(was: ManifestField): ManifestField {
  const { renamed_from: _previous, ...field } = structuredClone(was)
  return { ...field, required: false }
}

/**
 * A removed resource's table, its columns named as the older version names
 * them. It is top-level in storage: its parent becomes a required belongs-to
 * whose key is the older parent key, so the parent may be renamed since
 * without renaming the column. Has-many relations are left out (nothing
 * newer links back to it); the storage serves no includes of its own.
 */
function retiredResource(
  older: Readonly<Resources>,
  name: string,
  storageOf: ReadonlyMap<string, ResourceStorageNames>,
): ManifestResource {
  const {
    parent,
    on_delete,
    relations,
    include: _include,
    renamed_from: _previous,
    ...rest
  } = structuredClone(older[name]!)
  const belongsTo: [string, ManifestRelation][] = Object.entries(relations ?? {})
    .filter(([, relation]) => relation.many !== true)
    .map(([relationName, { renamed_from: _renamed, ...relation }]) => [
      relationName,
      { ...relation, resource: storageOf.get(relation.resource)?.resource ?? relation.resource },
    ])
  if (parent) {
    const parentKey = foreignKeyOf(parent, older[parent]?.singular)
    belongsTo.unshift([
      withoutIdSuffix(parentKey),
      { resource: storageOf.get(parent)?.resource ?? parent, required: true, ...(on_delete ? { on_delete } : {}) },
    ])
  }
  return { ...rest, ...(belongsTo.length > 0 ? { relations: Object.fromEntries(belongsTo) } : {}) }
}
