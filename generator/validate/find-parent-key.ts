import { asRecord } from '../manifest/as-record.js'
import { foreignKeyOf } from '../names/foreign-key-of.js'

export interface ParentKey {
  readonly parent: string
  /** `order_id` */
  readonly key: string
}

/** The foreign key a resource's `parent` generates, when the parent exists. */
export function findParentKey(
  resource: Readonly<Record<string, unknown>>,
  resources: Readonly<Record<string, unknown>>,
): ParentKey | null {
  const parent = resource.parent
  if (typeof parent !== 'string' || !Object.hasOwn(resources, parent)) return null
  const declared = asRecord(resources[parent])?.singular
  return { parent, key: foreignKeyOf(parent, typeof declared === 'string' ? declared : undefined) }
}
