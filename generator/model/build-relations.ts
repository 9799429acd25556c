import { FOREIGN_KEY_OPERATORS } from './default-filter-operators.js'
import { listInverseLinks, type InverseLink } from '../manifest/list-inverse-links.js'
import type { Manifest, ManifestResource } from '../manifest/manifest.js'
import { relationKeyOf } from '../names/derive-names.js'
import { findThroughLinks } from '../manifest/find-through-links.js'
import { relationPathSegment } from '../../runtime/contract/link-routes.js'
import type { RelationModel } from './api-model.js'

/**
 * The relations of resource `name`, in manifest order. A has-many takes its
 * foreign key from the link back it inverts: the one `via` names, or the only
 * one (validation guarantees there is exactly one to pick), and embeds at
 * most its `max_items`, else `includeItemsMax`, records.
 */
export function buildRelations(
  name: string,
  resource: ManifestResource,
  resources: Manifest['resources'],
  includeItemsMax: number,
): RelationModel[] {
  return Object.entries(resource.relations ?? {}).map(([relationName, relation]) => {
    if (relation.many !== true) {
      return {
        name: relationName,
        kind: 'belongs-to',
        resource: relation.resource,
        foreignKey: relationKeyOf(relationName),
        through: null,
        via: null,
        listPath: null,
        maxItems: null,
      }
    }
    if (relation.through !== undefined) {
      const links = findThroughLinks(resources, relation.through, name, relation.resource)
      if (links.source === undefined || links.target === undefined) {
        throw new Error(`internal error: many-to-many relation "${relationName}" of "${name}" lacks a join link`)
      }
      return {
        name: relationName,
        kind: 'many-to-many',
        resource: relation.resource,
        foreignKey: links.source.foreignKey,
        through: { resource: relation.through, targetKey: links.target.foreignKey },
        via: null,
        listPath: `/${name}/{id}/${relationPathSegment(relationName)}`,
        maxItems: relation.max_items ?? includeItemsMax,
      }
    }
    const links = listInverseLinks(resources, relation.resource, name)
    const link = relation.via === undefined ? links[0] : links.find((candidate) => candidate.name === relation.via)
    if (link === undefined || (relation.via === undefined && links.length > 1)) {
      throw new Error(`internal error: has-many relation "${relationName}" of "${name}" has no single link back`)
    }
    return {
      name: relationName,
      kind: 'has-many',
      resource: relation.resource,
      foreignKey: link.foreignKey,
      through: null,
      via: link.name,
      listPath: findListPath(name, relation.resource, resources[relation.resource], link),
      maxItems: relation.max_items ?? includeItemsMax,
    }
  })
}

/** RelationModel.listPath: the nested route, else an exact or `in` filter on the key. */
function findListPath(
  source: string,
  target: string,
  targetResource: ManifestResource | undefined,
  link: InverseLink,
): string | null {
  if (link.kind === 'parent') return `/${source}/{id}/${target}`
  const operators = targetResource?.filter ? (targetResource.filter[link.foreignKey] ?? []) : FOREIGN_KEY_OPERATORS
  if (operators.includes('eq')) return `/${target}?${link.foreignKey}={id}`
  // Brackets percent-encoded, as the page links encode them, so the link is a valid URI reference.
  if (operators.includes('in')) return `/${target}?${encodeURIComponent(`filter[${link.foreignKey}][in]`)}={id}`
  return null
}
