import { SOFT_DELETE_FIELD } from '../../runtime/contract/field-type.js'
import { asRecord } from '../manifest/as-record.js'
import { relationKeyOf, foreignKeyOf } from '../names/derive-names.js'
import { orderResourceFields } from '../manifest/order-resource-fields.js'

/** A field a resource's records will have, declared or generated. */
export interface ResourceField {
  readonly name: string
  /** The declared `type`, unchecked: a field with a broken type is still a field. */
  readonly type: unknown
  /** The parent key or a relation's `<name>_id`. */
  readonly foreignKey: boolean
}

/**
 * Every field of resource `name`, generated ones included, in the model's
 * order (orderResourceFields; the parent key when the parent exists). What `sort:` and
 * `filter:` may name. Reads data that may not have passed the schema.
 */
export function listResourceFields(resources: Readonly<Record<string, unknown>>, name: string): ResourceField[] {
  const resource = Object.hasOwn(resources, name) ? asRecord(resources[name]) : null
  if (resource === null) return []
  const declared = Object.entries(asRecord(resource.fields) ?? {}).map(([field, options]) => ({
    name: field,
    type: asRecord(options)?.type,
    foreignKey: false,
  }))
  const ownerField = asRecord(resource.owner)?.field
  if (typeof ownerField === 'string') declared.push({ name: ownerField, type: 'string', foreignKey: false })
  const parentKey = findParentKey(resource, resources)
  const relations = asRecord(resource.relations) ?? {}
  const relationKeys = Object.keys(relations)
    .filter((relation) => asRecord(relations[relation])?.many !== true)
    .map((relation) => foreignKey(relationKeyOf(relation)))
  const fields = orderResourceFields<ResourceField>({
    declared,
    parentKey: parentKey === null ? null : foreignKey(parentKey.key),
    relationKeys,
    serverManaged: (field, type) => ({ name: field, type, foreignKey: false }),
    deletedAt: resource.soft_delete === true ? { name: SOFT_DELETE_FIELD, type: 'datetime', foreignKey: false } : null,
  })
  // A name declared twice (a declared field repeating a generated key) counts once, as first given.
  return fields.filter((field, index) => fields.findIndex((other) => other.name === field.name) === index)
}

function foreignKey(name: string): ResourceField {
  return { name, type: 'integer', foreignKey: true }
}

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
