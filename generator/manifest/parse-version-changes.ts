import type { VersionChange, VersionChangeKind } from '../model/version-change.js'
import type { ManifestVersionChange } from './manifest.js'

/** The keys of a `changes` entry that name a change, in the order the checks list them. */
export const VERSION_CHANGE_KINDS: readonly VersionChangeKind[] = [
  'rename_field',
  'remove_field',
  'add_field',
  'rename_resource',
  'reroot_resource',
  'remove_resource',
]

/**
 * The changes a validated version declares, in manifest order. Assumes each
 * entry names exactly one kind (checkVersionChanges reports the others).
 */
export function parseVersionChanges(entries: readonly ManifestVersionChange[] | undefined): VersionChange[] {
  return (entries ?? []).map(parseVersionChange)
}

function parseVersionChange(entry: ManifestVersionChange): VersionChange {
  const why = entry.why
  if (entry.rename_field) return { kind: 'rename_field', ...entry.rename_field, why }
  if (entry.remove_field) return { kind: 'remove_field', ...entry.remove_field, why }
  if (entry.add_field) {
    const { resource, field, older_value: olderValue } = entry.add_field
    return { kind: 'add_field', resource, field, olderValue: olderValue ?? null, why }
  }
  if (entry.rename_resource) return { kind: 'rename_resource', ...entry.rename_resource, why }
  if (entry.reroot_resource) {
    const { resource, from_parent: fromParent } = entry.reroot_resource
    return { kind: 'reroot_resource', resource, fromParent, why }
  }
  if (entry.remove_resource) return { kind: 'remove_resource', ...entry.remove_resource, why }
  throw new Error('a version change without a kind passed validation')
}
