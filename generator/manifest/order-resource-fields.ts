import type { FieldType } from '../../runtime/contract/field-type.js'
import { SERVER_MANAGED_FIELDS, type ServerManagedField } from '../../runtime/contract/field-type.js'

/** A resource's fields in pieces, each built by the caller in its own shape. */
export interface ResourceFieldParts<Field> {
  readonly declared: readonly Field[]
  /** The parent key, when the resource has a parent. */
  readonly parentKey: Field | null
  /** The `<relation>_id` of each belongs-to, in manifest order. */
  readonly relationKeys: readonly Field[]
  readonly serverManaged: (name: ServerManagedField, type: FieldType) => Field
  /** `deleted_at`, when the resource is `soft_delete: true`. */
  readonly deletedAt?: Field | null
}

/**
 * The one order of a resource's fields, which records, tables, types and
 * documentation all show: `id`, declared fields, the parent key, relation
 * keys, `created_at`, `updated_at`, then `deleted_at` of a soft-deleting resource.
 */
export function orderResourceFields<Field>(parts: ResourceFieldParts<Field>): Field[] {
  const [id, ...timestamps] = (Object.entries(SERVER_MANAGED_FIELDS) as [ServerManagedField, FieldType][]).map(
    ([name, type]) => parts.serverManaged(name, type),
  )
  return [
    id!,
    ...parts.declared,
    ...(parts.parentKey === null ? [] : [parts.parentKey]),
    ...parts.relationKeys,
    ...timestamps,
    ...(parts.deletedAt ? [parts.deletedAt] : []),
  ]
}
