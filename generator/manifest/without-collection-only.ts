import type { ManifestResource } from './manifest.js'

/**
 * The resources that have a table: every one but the `collection_only` ones,
 * which serve only their custom operations. Versions, the storage and CRUD
 * routes are derived from these.
 */
export function withoutCollectionOnly(
  resources: Readonly<Record<string, ManifestResource>>,
): Record<string, ManifestResource> {
  const entries = Object.entries(resources)
  const kept = entries.filter(([, resource]) => resource.collection_only !== true)
  // Unchanged when there is none: later stages may rely on the newest version being the manifest's own object.
  return kept.length === entries.length ? (resources as Record<string, ManifestResource>) : Object.fromEntries(kept)
}
