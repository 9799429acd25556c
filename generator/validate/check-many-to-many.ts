import { asRecord } from '../manifest/as-record.js'
import { findThroughLinks } from '../manifest/find-through-links.js'
import { singularOf } from '../names/derive-names.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'
import { listResourceEntries } from './list-resource-entries.js'

/**
 * A many-to-many relation (`many: true, through: <join>`): THROUGH_LINKS at
 * `through` when it names no resource, or a join resource without a
 * belongs-to relation (or parent) to each end; RELATION_OPTIONS when
 * `through` is given without `many: true`.
 */
export function checkManyToMany(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const relation of listResourceEntries(data, 'relations')) {
    const through = relation.options?.through
    const target = relation.options?.resource
    if (typeof through !== 'string') continue
    const at = context.atValue([...relation.path, 'through'])
    if (relation.options?.many !== true) {
      context.report(
        'RELATION_OPTIONS',
        `"through" applies to many-to-many relations; relation "${relation.name}" of resource "${relation.resource}" is a belongs-to: add many: true, or remove through`,
        context.atKey([...relation.path, 'through']),
      )
      continue
    }
    if (!Object.hasOwn(resources, through)) {
      context.report(
        'THROUGH_LINKS',
        `through ${JSON.stringify(through)} of relation "${relation.name}" is not a resource in this manifest${hintUnknownName(through, Object.keys(resources), 'declared resources')}; declare the join resource with a belongs-to relation to each end`,
        at,
      )
      continue
    }
    if (typeof target !== 'string' || !Object.hasOwn(resources, target)) continue
    const links = findThroughLinks(resources, through, relation.resource, target)
    const missing = [
      ...(links.source === undefined ? [relation.resource] : []),
      ...(links.target === undefined ? [target] : []),
    ]
    if (missing.length === 0) continue
    const example = missing
      .map((end) => {
        const singular = asRecord(resources[end])?.singular
        const name = singularOf(end, typeof singular === 'string' ? singular : undefined).replaceAll('-', '_')
        return `${name}: { resource: ${end}, required: true, on_delete: cascade }`
      })
      .join(', ')
    context.report(
      'THROUGH_LINKS',
      `join resource "${through}" of many-to-many relation "${relation.name}" has no belongs-to relation to ${missing.map((end) => `"${end}"`).join(' nor to ')}; add to "${through}": relations: { ${example} }`,
      at,
    )
  }
}
