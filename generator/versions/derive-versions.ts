import type { Manifest, ManifestResource } from '../manifest/manifest.js'
import { orderVersions } from '../manifest/order-versions.js'
import { withoutCollectionOnly } from '../manifest/without-collection-only.js'
import { applyChangesBackwards, type NamesToNewer } from './apply-changes-backwards.js'
import { buildStorage, type StorageCollision, type StorageNames } from './build-storage.js'
import { parseVersionChanges, type VersionChange } from './version-change.js'

/** One version's resources as the manifest implies them. */
export interface VersionResources {
  /** `v1` */
  readonly name: string
  /** `frozen: true`: the version serves exactly its published contract. */
  readonly frozen: boolean
  /** The breaking changes this version declares relative to the one before it. */
  readonly changes: readonly VersionChange[]
  /** In the manifest's form, so the validator and the model builder take them like `resources:`. */
  readonly resources: Readonly<Record<string, ManifestResource>>
  /** The newer version whose changes, applied backwards, gave these resources; null for the newest. */
  readonly derivedFrom: string | null
  /** Paths of `resources` those changes wrote → the index of the change (see OlderResources). */
  readonly origins: ReadonlyMap<string, number>
  /** What the next newer version calls each of this version's names; null for the newest. */
  readonly toNewer: NamesToNewer | null
  /** Where the storage keeps each of this version's resources, fields and relations. */
  readonly toStorage: StorageNames
}

/** Every version of a manifest, derived once, and the storage that serves them all. */
export interface DerivedVersions {
  /** Oldest first. */
  readonly versions: readonly VersionResources[]
  /** The storage's resources, in the manifest's form (buildStorage). */
  readonly storage: Readonly<Record<string, ManifestResource>>
  /** Removed names a newer version uses again (checkDerivedVersions reports them). */
  readonly collisions: readonly StorageCollision[]
}

/**
 * Every version's resources, oldest first: the newest version's are the
 * manifest's `resources:`, and each older version's are the next newer
 * version's with that version's changes applied backwards; then the storage
 * that serves them all. Needs a manifest whose checks before
 * checkDerivedVersions passed.
 */
export function deriveVersions(declared: Manifest): DerivedVersions {
  // collection_only resources have no table and no records: nothing here concerns them.
  const manifest = { ...declared, resources: withoutCollectionOnly(declared.resources) }
  const names = orderVersions(Object.keys(manifest.versions))
  const newest = names.at(-1)!
  const derived: Omit<VersionResources, 'toStorage'>[] = [
    {
      name: newest,
      frozen: isFrozen(manifest, newest),
      changes: changesOf(manifest, newest),
      resources: manifest.resources,
      derivedFrom: null,
      origins: new Map(),
      toNewer: null,
    },
  ]
  for (const name of names.slice(0, -1).reverse()) {
    const newer = derived[0]!
    const { resources, origins, toNewer } = applyChangesBackwards(newer.resources, newer.changes)
    derived.unshift({
      name,
      frozen: isFrozen(manifest, name),
      changes: changesOf(manifest, name),
      resources,
      derivedFrom: newer.name,
      origins,
      toNewer,
    })
  }
  const { storage, toStorage, collisions } = buildStorage(manifest, derived)
  return {
    versions: derived.map((version, index) => ({ ...version, toStorage: toStorage[index]! })),
    storage,
    collisions,
  }
}

function changesOf(manifest: Manifest, version: string): VersionChange[] {
  return parseVersionChanges(manifest.versions[version]?.changes)
}

function isFrozen(manifest: Manifest, version: string): boolean {
  return manifest.versions[version]?.frozen === true
}
