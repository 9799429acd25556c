import type { AccessOperation } from '../../runtime/contract/access-rule.js'
import type { FilterOperator } from '../../runtime/contract/filter-operator.js'
import type {
  ManifestAccessRule,
  ManifestField,
  ManifestResource,
  ManifestVersionChange,
} from '../manifest/manifest.js'

/**
 * One breaking change a version declares relative to the version before it
 * (`versions.v2.changes` in the manifest), with resource and field names as
 * the newer version spells them unless the change says otherwise. Older
 * versions are derived by applying a version's changes backwards; `restmint
 * check` requires every breaking difference between consecutive versions to
 * be declared here, and every change declared here to appear in the diff.
 */
export type VersionChange =
  | {
      readonly kind: 'rename_field'
      readonly resource: string
      readonly from: string
      readonly to: string
      readonly why: string
    }
  | {
      readonly kind: 'remove_field'
      readonly resource: string
      readonly field: string
      readonly was: ManifestField
      /** Its operators in the older version's `filter:`, when that lists them; null otherwise. */
      readonly filter: readonly FilterOperator[] | null
      /** Whether the older version's `sort:` lists it. */
      readonly sort: boolean
      readonly why: string
    }
  | {
      readonly kind: 'add_field'
      readonly resource: string
      readonly field: string
      /** What rows created through the older version get (the field is required in the newer one). */
      readonly olderValue: string | number | boolean | null
      readonly why: string
    }
  | { readonly kind: 'rename_resource'; readonly from: string; readonly to: string; readonly why: string }
  | { readonly kind: 'reroot_resource'; readonly resource: string; readonly fromParent: string; readonly why: string }
  | {
      readonly kind: 'remove_resource'
      readonly resource: string
      readonly was: ManifestResource
      readonly why: string
    }
  /** New in the newer version and left out of the older one, which is frozen. */
  | { readonly kind: 'add_resource'; readonly resource: string; readonly why: string }
  /** The resource's `aggregate:` is new in the newer version; the older one, frozen, has no aggregates path. */
  | { readonly kind: 'add_aggregate'; readonly resource: string; readonly why: string }
  /**
   * The resource's `soft_delete: true` is new in the newer version; the older
   * one, frozen, shows no `deleted_at`, `?deleted=` nor restorations (its
   * DELETE stamps the record all the same: the storage is one).
   */
  | { readonly kind: 'add_soft_delete'; readonly resource: string; readonly why: string }
  | {
      readonly kind: 'change_access'
      readonly resource: string
      /** `all`: the older version had `was` for every operation. */
      readonly operation: AccessOperation | 'all'
      /** The older version's rule; the newer one's is the resource's `access:`. */
      readonly was: ManifestAccessRule
      readonly why: string
    }

export type VersionChangeKind = VersionChange['kind']
/** The keys of a `changes` entry that name a change, in the order the checks list them. */
export const VERSION_CHANGE_KINDS: readonly VersionChangeKind[] = [
  'rename_field',
  'remove_field',
  'add_field',
  'rename_resource',
  'reroot_resource',
  'remove_resource',
  'add_resource',
  'add_aggregate',
  'add_soft_delete',
  'change_access',
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
  if (entry.remove_field) {
    const { filter, sort, ...removed } = entry.remove_field
    return { kind: 'remove_field', ...removed, filter: filter ?? null, sort: sort ?? false, why }
  }
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
  if (entry.add_resource) return { kind: 'add_resource', ...entry.add_resource, why }
  if (entry.add_aggregate) return { kind: 'add_aggregate', ...entry.add_aggregate, why }
  if (entry.add_soft_delete) return { kind: 'add_soft_delete', ...entry.add_soft_delete, why }
  if (entry.change_access) return { kind: 'change_access', ...entry.change_access, why }
  throw new Error('a version change without a kind passed validation')
}
