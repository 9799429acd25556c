import { asRecord } from '../manifest/as-record.js'
import { listInverseLinks, type InverseLink } from '../manifest/list-inverse-links.js'
import { singularOf } from '../names/derive-names.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'
import { listResourceEntries, type ListedEntry } from './list-resource-entries.js'

/**
 * A has-many relation (`many: true`) is the inverse of one link on its
 * target pointing back: HAS_MANY_INVERSE_MISSING when there is none,
 * HAS_MANY_INVERSE_AMBIGUOUS when there are several and `via` does not pick
 * one (both at the relation's key), HAS_MANY_VIA when `via` names none of
 * them (at its value). Unknown targets are RELATION_TARGET_UNKNOWN's.
 */
export function checkHasMany(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const relation of listResourceEntries(data, 'relations')) {
    const target = relation.options?.resource
    if (relation.options?.many !== true || typeof target !== 'string' || !Object.hasOwn(resources, target)) continue
    // A many-to-many's links are on its join resource (checkManyToMany).
    if (relation.options.through !== undefined) continue
    const links = listInverseLinks(resources, target, relation.resource)
    const via = relation.options.via
    if (typeof via === 'string') {
      if (!links.some((link) => link.name === via)) reportBadVia(context, relation, target, via, links)
      continue
    }
    const label = `has-many relation "${relation.name}" of resource "${relation.resource}"`
    if (links.length === 0) {
      const singular = asRecord(resources[relation.resource])?.singular
      const example = singularOf(relation.resource, typeof singular === 'string' ? singular : undefined)
      context.report(
        'HAS_MANY_INVERSE_MISSING',
        `${label} needs a link back: "${target}" has neither parent: ${relation.resource} nor a belongs-to relation to "${relation.resource}"; add one to "${target}", e.g. relations: { ${example.replaceAll('-', '_')}: { resource: ${relation.resource} } }`,
        context.atKey(relation.path),
      )
    } else if (links.length > 1) {
      context.report(
        'HAS_MANY_INVERSE_AMBIGUOUS',
        `${label} is ambiguous: "${target}" links back to "${relation.resource}" through ${describeLinks(links)}; name one with via:, e.g. via: ${links[0]!.name}`,
        context.atKey(relation.path),
      )
    }
  }
}

function reportBadVia(
  context: CheckContext,
  relation: ListedEntry,
  target: string,
  via: string,
  links: readonly InverseLink[],
): void {
  const hint =
    links.length === 0
      ? `; "${target}" has none: add parent: ${relation.resource}, or a belongs-to relation to "${relation.resource}", there`
      : hintUnknownName(
          via,
          links.map((link) => link.name),
          `"${target}" links back through`,
        )
  context.report(
    'HAS_MANY_VIA',
    `via ${JSON.stringify(via)} of relation "${relation.name}" names no link from "${target}" back to "${relation.resource}"${hint}`,
    context.atValue([...relation.path, 'via']),
  )
}

/** `the parent key "post_id" and relation "reviewer"` */
function describeLinks(links: readonly InverseLink[]): string {
  const described = links.map((link) =>
    link.kind === 'parent' ? `the parent key "${link.name}"` : `relation "${link.name}"`,
  )
  return `${described.slice(0, -1).join(', ')} and ${described[described.length - 1]!}`
}
