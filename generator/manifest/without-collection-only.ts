import type { ManifestResource } from './manifest.js'

/**
 * The resources that have a table: every one but the `collection_only` ones,
 * which serve only their custom operations. Versions, the storage and CRUD
 * routes are derived from these.
 */
export function withoutCollectionOnly(
  resources: Readonly<Record<string, ManifestResource>>,
): Record<string, ManifestResource> {
  return Object.fromEntries(Object.entries(resources).filter(([, resource]) => resource.collection_only !== true))
}
