import type { Manifest, ManifestField, ManifestRelation, ManifestResource } from '../manifest/manifest.js'
import { foreignKeyOf } from '../names/foreign-key-of.js'
import { withoutIdSuffix } from '../names/without-id-suffix.js'
import { deriveVersionResources } from './derive-version-resources.js'
import type { VersionChange } from './version-change.js'

type Resources = Record<string, ManifestResource>

/**
 * The storage's resources, in the manifest's form: the newest version's, plus
 * what only older versions still use. Every version listed in `versions:` is
 * live, so a field a newer version removed stays a column of its table, and a
 * removed resource stays a table, until its version leaves `versions:` (then
 * `migrate create` drops them, with `--allow-data-loss`). The newest version's
 * renames (`rename_field`, `rename_resource`) are storage renames, declared as
 * `renamed_from` unless the manifest declares one itself. A removed name a
 * newer version uses again is passed to `onCollision` and keeps the newer one.
 */
export function buildStorageResources(
  manifest: Manifest,
  onCollision: (collision: StorageCollision) => void = () => {},
): Resources {
  const resources = structuredClone(manifest.resources) as Resources
  const versions = deriveVersionResources(manifest)
  markStorageRenames(resources, versions.at(-1)!.changes)
  /** Each resource of the version being walked (newest first), by its name there → its storage resource. */
  let storageOf = new Map(Object.keys(resources).map((name) => [name, name]))
  for (let index = versions.length - 1; index > 0; index--) {
    const { name, changes } = versions[index]!
    const older = versions[index - 1]!.resources
    changes.forEach((change, at) => {
      if (change.kind !== 'remove_field') return
      const table = resources[storageOf.get(change.resource) ?? '']
      if (!table) return
      if (table.fields?.[change.field])
        onCollision({ version: name, change: at, table: storageOf.get(change.resource)! })
      else table.fields = { ...table.fields, [change.field]: retiredField(change.was) }
    })
    storageOf = renameBackwards(storageOf, changes)
    changes.forEach((change, at) => {
      if (change.kind !== 'remove_resource') return
      if (resources[change.resource]) return onCollision({ version: name, change: at, table: change.resource })
      resources[change.resource] = retiredResource(older, change.resource, storageOf)
      storageOf.set(change.resource, change.resource)
    })
  }
  return resources
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

/** `rename_field` and `rename_resource` as `renamed_from`s: `migrate create` renames rather than drops and adds. */
function markStorageRenames(resources: Resources, changes: readonly VersionChange[]): void {
  for (const change of changes) {
    if (change.kind === 'rename_field') {
      const field = resources[change.resource]?.fields?.[change.to]
      if (field) field.renamed_from ??= change.from
    } else if (change.kind === 'rename_resource' && resources[change.to]) {
      const renamed = resources[change.to]!
      renamed.renamed_from ??= change.from
      // A belongs-to named after the resource (`writer` → `writer_id`) was named after its older name.
      const newerRelation = withoutIdSuffix(foreignKeyOf(change.to, renamed.singular))
      const olderRelation = withoutIdSuffix(foreignKeyOf(change.from))
      for (const resource of Object.values(resources)) {
        const relation = resource.relations?.[newerRelation]
        if (relation && relation.many !== true && relation.resource === change.to)
          relation.renamed_from ??= olderRelation
      }
    }
  }
}

/** The map for the version before the one whose changes these are: renamed resources go by their older names. */
function renameBackwards(
  storageOf: ReadonlyMap<string, string>,
  changes: readonly VersionChange[],
): Map<string, string> {
  const older = new Map(storageOf)
  for (const change of changes) {
    if (change.kind !== 'rename_resource' || !storageOf.has(change.to)) continue
    older.delete(change.to)
    older.set(change.from, storageOf.get(change.to)!)
  }
  return older
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
  storageOf: ReadonlyMap<string, string>,
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
      { ...relation, resource: storageOf.get(relation.resource) ?? relation.resource },
    ])
  if (parent) {
    const parentKey = foreignKeyOf(parent, older[parent]?.singular)
    belongsTo.unshift([
      withoutIdSuffix(parentKey),
      { resource: storageOf.get(parent) ?? parent, required: true, ...(on_delete ? { on_delete } : {}) },
    ])
  }
  return { ...rest, ...(belongsTo.length > 0 ? { relations: Object.fromEntries(belongsTo) } : {}) }
}
