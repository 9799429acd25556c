import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { buildStorageModel } from '../../generator/migrate/storage-model.js'
import type { TableOrigin } from '../../generator/migrate/table-origins.js'
import { buildModel } from '../../generator/model/build-model.js'
import { validateManifest } from '../../generator/validate/validate-manifest.js'
import type { StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'

/** A manifest of `resources` (YAML, indented under `resources:`). */
export function manifestOf(resources: string): string {
  return `restmint: 1\nservice: { title: Test }\nversions: { v1: {} }\nresources:\n${resources}`
}

/** The storage model of a manifest given as `resources:` YAML; throws on an invalid manifest. */
export function storageOf(resources: string): ManifestStorage {
  return storageOfManifest(manifestOf(resources))
}

export interface ManifestStorage {
  readonly snapshot: StorageSnapshot
  readonly origins: ReadonlyMap<string, TableOrigin>
}

/** The storage model of a whole manifest text; throws on an invalid manifest. */
export function storageOfManifest(text: string): ManifestStorage {
  const { manifest, versions, diagnostics } = validateManifest(loadManifest('resources.yaml', text))
  if (manifest === null || versions === null)
    throw new Error(diagnostics.map((diagnostic) => diagnostic.message).join('\n'))
  return buildStorageModel(buildModel(manifest, 'resources.yaml', versions))
}
