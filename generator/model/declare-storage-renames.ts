import type { Manifest } from '../manifest/manifest.js'
import type { VersionChange } from './version-change.js'

/**
 * The manifest with the newest version's `rename_field` changes declared as
 * storage renames too: the renamed field gets `renamed_from` (unless it names
 * one itself), so `migrate create` renames the column and keeps its values,
 * as the older version, still served from that column, needs. Only the newest
 * version's: its changes lead from the previous storage to the current one.
 */
export function declareStorageRenames(manifest: Manifest, newestChanges: readonly VersionChange[]): Manifest {
  const resources = { ...manifest.resources }
  for (const change of newestChanges) {
    if (change.kind !== 'rename_field') continue
    const resource = resources[change.resource]
    const field = resource?.fields?.[change.to]
    if (!resource || !field || field.renamed_from !== undefined) continue
    resources[change.resource] = {
      ...resource,
      fields: { ...resource.fields, [change.to]: { ...field, renamed_from: change.from } },
    }
  }
  return { ...manifest, resources }
}
