import { asRecord } from '../manifest/as-record.js'
import { relationKeyOf } from '../manifest/relation-key-of.js'
import { findParentKey } from './find-parent-key.js'

/** A field a resource's records will have, declared or generated. */
export interface ResourceField {
  readonly name: string
  /** The declared `type`, unchecked: a field with a broken type is still a field. */
  readonly type: unknown
  /** The parent key or a relation's `<name>_id`. */
  readonly foreignKey: boolean
}

/**
 * Every field of resource `name`, generated ones included, in the order the
 * model gives them: `id`, declared fields, the parent key (when the parent
 * exists), relation keys, `created_at`, `updated_at`. What `sort:` and
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
  const parentKey = findParentKey(resource, resources)
  const relations = asRecord(resource.relations) ?? {}
  const relationKeys = Object.keys(relations)
    .filter((relation) => asRecord(relations[relation])?.many !== true)
    .map((relation) => foreignKey(relationKeyOf(relation)))
  const fields: ResourceField[] = [
    { name: 'id', type: 'integer', foreignKey: false },
    ...declared,
    ...(parentKey === null ? [] : [foreignKey(parentKey.key)]),
    ...relationKeys,
    { name: 'created_at', type: 'datetime', foreignKey: false },
    { name: 'updated_at', type: 'datetime', foreignKey: false },
  ]
  // A name declared twice (a declared field repeating a generated key) counts once, as first given.
  return fields.filter((field, index) => fields.findIndex((other) => other.name === field.name) === index)
}

function foreignKey(name: string): ResourceField {
  return { name, type: 'integer', foreignKey: true }
}
