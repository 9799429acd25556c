import type { ManifestField, ManifestResource } from '../manifest/manifest.js'

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

export type VersionChangeKind = VersionChange['kind']
