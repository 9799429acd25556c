import type { Manifest, ManifestResource } from '../manifest/manifest.js'
import { orderVersions } from '../manifest/order-versions.js'
import { parseVersionChanges } from '../manifest/parse-version-changes.js'
import { applyChangesBackwards } from './apply-changes-backwards.js'
import type { VersionChange } from './version-change.js'

/** One version's resources as the manifest implies them. */
export interface VersionResources {
  /** `v1` */
  readonly name: string
  /** The breaking changes this version declares relative to the one before it. */
  readonly changes: readonly VersionChange[]
  /** In the manifest's form, so the validator and the model builder take them like `resources:`. */
  readonly resources: Readonly<Record<string, ManifestResource>>
  /** The newer version whose changes, applied backwards, gave these resources; null for the newest. */
  readonly derivedFrom: string | null
  /** Paths of `resources` those changes wrote → the index of the change (see OlderResources). */
  readonly origins: ReadonlyMap<string, number>
}

/**
 * Every version's resources, oldest first: the newest version's are the
 * manifest's `resources:`, and each older version's are the next newer
 * version's with that version's changes applied backwards.
 */
export function deriveVersionResources(manifest: Manifest): VersionResources[] {
  const names = orderVersions(Object.keys(manifest.versions))
  const newest = names.at(-1)!
  const derived: VersionResources[] = [
    {
      name: newest,
      changes: changesOf(manifest, newest),
      resources: manifest.resources,
      derivedFrom: null,
      origins: new Map(),
    },
  ]
  for (const name of names.slice(0, -1).reverse()) {
    const newer = derived[0]!
    const { resources, origins } = applyChangesBackwards(newer.resources, newer.changes)
    derived.unshift({ name, changes: changesOf(manifest, name), resources, derivedFrom: newer.name, origins })
  }
  return derived
}

function changesOf(manifest: Manifest, version: string): VersionChange[] {
  return parseVersionChanges(manifest.versions[version]?.changes)
}
