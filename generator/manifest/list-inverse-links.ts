import { asRecord } from './as-record.js'
import { foreignKeyOf, relationKeyOf } from '../names/derive-names.js'

/** A link on one resource that holds the id of another: its parent key or a belongs-to relation. */
export interface InverseLink {
  /** What `via:` calls it: the relation's name, or the parent key (`post_id`). */
  readonly name: string
  readonly kind: 'parent' | 'relation'
  /** The column holding the other resource's id: `post_id`, `author_id`. */
  readonly foreignKey: string
}

/**
 * The links on resource `target` that point at resource `source`: its
 * `parent:` when that is `source`, then its belongs-to relations to `source`,
 * in manifest order. A has-many from `source` to `target` is the inverse of
 * exactly one of them. Reads data that may not have passed the schema.
 */
export function listInverseLinks(
  resources: Readonly<Record<string, unknown>>,
  target: string,
  source: string,
): InverseLink[] {
  const targetValue = Object.hasOwn(resources, target) ? asRecord(resources[target]) : null
  if (targetValue === null) return []
  const links: InverseLink[] = []
  if (targetValue.parent === source) {
    const singular = asRecord(resources[source])?.singular
    const key = foreignKeyOf(source, typeof singular === 'string' ? singular : undefined)
    links.push({ name: key, kind: 'parent', foreignKey: key })
  }
  for (const [name, value] of Object.entries(asRecord(targetValue.relations) ?? {})) {
    const relation = asRecord(value)
    if (relation?.resource === source && relation.many !== true) {
      links.push({ name, kind: 'relation', foreignKey: relationKeyOf(name) })
    }
  }
  return links
}
