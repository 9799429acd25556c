import type { FieldModel, RelationModel, ResourceModel, RouteModel, VersionModel } from './api-model.js'
import { findResource } from './find-resource.js'

/** What a client of the older version changes: one name it uses, and what the newer version calls it. */
export interface MigrationStep {
  readonly kind: 'endpoint' | 'field' | 'query parameter' | 'include path'
  /** As the older version has it (`/v1/posts/{post_id}/comments`, `posts.body`); null for what only the newer has. */
  readonly older: string | null
  /** As the newer version has it; null for what it no longer has. */
  readonly newer: string | null
}

/**
 * Every endpoint, field, query parameter and include path of `older` that
 * `newer` names differently or no longer has, and every field only `newer`
 * has, traced through the changes `newer` declares: resource renames and
 * removals, field renames, removals and additions, the keys and relations
 * named after a renamed resource, and re-rooted routes. What keeps its name
 * is left out.
 */
export function listMigrationSteps(older: VersionModel, newer: VersionModel): MigrationStep[] {
  const trace = new NameTrace(older, newer)
  const steps: MigrationStep[] = []
  for (const resource of older.resources) {
    const renamed = trace.resource(resource.name)
    for (const route of resource.routes) {
      const path = renamed && trace.route(resource, renamed, route)
      if (path !== route.path) steps.push(step('endpoint', older.prefix + route.path, path && newer.prefix + path))
    }
    if (!renamed) continue
    const list = { older: older.prefix + collectionPath(resource), newer: newer.prefix + collectionPath(renamed) }
    const reached = new Set<string>()
    for (const field of resource.fields) {
      const name = trace.field(resource, field.name)
      if (name !== null) reached.add(name)
      if (name === field.name) continue
      steps.push(step('field', `${resource.name}.${field.name}`, name && `${renamed.name}.${name}`))
      steps.push(...listParameterSteps(resource, field, name, list))
    }
    for (const field of renamed.fields) {
      if (!reached.has(field.name)) steps.push(step('field', null, `${renamed.name}.${field.name}`))
    }
    for (const path of resource.includes) {
      const traced = trace.includePath(resource, path)
      if (traced !== path)
        steps.push(step('include path', `${list.older}?include=${path}`, traced && `${list.newer}?include=${traced}`))
    }
  }
  return steps
}

/** The top-level collection path, which every resource has. */
function collectionPath(resource: ResourceModel): string {
  return resource.routes.find((route) => route.kind === 'collection' && route.nestedUnder === null)!.path
}

function step(kind: MigrationStep['kind'], older: string | null, newer: string | null): MigrationStep {
  return { kind, older, newer }
}

/**
 * The query parameters older `resource` takes on `field`, which the newer
 * version calls `name` (null: gone), on its collection path in each version
 * (`list`). Operators are left out: a rename keeps them.
 */
function listParameterSteps(
  resource: ResourceModel,
  field: FieldModel,
  name: string | null,
  list: { readonly older: string; readonly newer: string },
): MigrationStep[] {
  const parameters: [string, string][] = []
  const operators = resource.filters.find((filter) => filter.field === field.name)?.operators ?? []
  if (operators.includes('eq')) parameters.push([`${field.name}=`, `${name}=`])
  if (operators.length > 0) parameters.push([`filter[${field.name}][…]=`, `filter[${name}][…]=`])
  if (resource.sortable.includes(field.name)) parameters.push([`sort=${field.name}`, `sort=${name}`])
  return parameters.map(([before, after]) =>
    step('query parameter', `${list.older}?${before}`, name && `${list.newer}?${after}`),
  )
}

/** The newer version's name of each thing the older version names, following the newer version's changes. */
class NameTrace {
  readonly #older: VersionModel
  readonly #newer: VersionModel

  constructor(older: VersionModel, newer: VersionModel) {
    this.#older = older
    this.#newer = newer
  }

  /** The newer version's resource that older resource `name` became; null when removed. */
  resource(name: string): ResourceModel | null {
    let renamed = name
    for (const change of this.#newer.changes) {
      if (change.kind === 'rename_resource' && change.from === name) renamed = change.to
      if (change.kind === 'remove_resource' && change.resource === name) return null
    }
    return this.#newer.resources.find((resource) => resource.name === renamed) ?? null
  }

  /** The newer name of `field` of older `resource`; null when the newer resource does not have it. */
  field(resource: ResourceModel, field: string): string | null {
    const renamed = this.resource(resource.name)
    if (!renamed) return null
    for (const change of this.#newer.changes) {
      if (change.kind === 'rename_field' && change.resource === renamed.name && change.from === field) return change.to
      if (change.kind === 'remove_field' && change.resource === renamed.name && change.field === field) return null
    }
    const references = resource.fields.find((candidate) => candidate.name === field)?.references
    const target = references && findResource(this.#older, references.resource)
    const renamedTarget = target && this.resource(target.name)
    // A key named after a renamed resource is renamed with it (`author_id` → `writer_id`).
    const name = target && renamedTarget && field === target.idParam ? renamedTarget.idParam : field
    return renamed.fields.some((candidate) => candidate.name === name) ? name : null
  }

  /** The newer path of `route` of older `resource` (now `renamed`), without the version prefix; null when gone. */
  route(resource: ResourceModel, renamed: ResourceModel, route: RouteModel): string | null {
    const nested = route.nestedUnder
    const parent = nested && this.resource(nested.parentResource)
    const same = renamed.routes.find(
      (candidate) =>
        candidate.kind === route.kind &&
        (nested === null ? candidate.nestedUnder === null : candidate.nestedUnder?.parentResource === parent?.name),
    )
    if (same) return same.path
    // Re-rooted: the top-level route, its collection filtered on the key that was the parent key.
    const topLevel = renamed.routes.find((candidate) => candidate.kind === route.kind && candidate.nestedUnder === null)
    if (!nested || !topLevel) return null
    const key = this.field(resource, nested.parentKey)
    const filtered =
      key !== null && renamed.filters.some((filter) => filter.field === key && filter.operators.includes('eq'))
    return route.kind === 'collection' && filtered ? `${topLevel.path}?${key}={${nested.parentKey}}` : topLevel.path
  }

  /** The newer include path of older `resource`'s `path`; null when a relation on the way is gone. */
  includePath(resource: ResourceModel, path: string): string | null {
    let current: ResourceModel = resource
    const segments: string[] = []
    for (const segment of path.split('.')) {
      const relation = current.relations.find((candidate) => candidate.name === segment)
      const traced = relation && this.relation(current, relation)
      if (!relation || !traced) return null
      segments.push(traced)
      current = findResource(this.#older, relation.resource)
    }
    return segments.join('.')
  }

  /** The newer name of `relation` of older `resource`: the relation of the same kind over the same key. */
  relation(resource: ResourceModel, relation: RelationModel): string | null {
    const renamed = this.resource(resource.name)
    const target = findResource(this.#older, relation.resource)
    const renamedTarget = this.resource(target.name)
    if (!renamed || !renamedTarget) return null
    const key =
      relation.kind === 'belongs-to'
        ? this.field(resource, relation.foreignKey)
        : this.field(target, relation.foreignKey)
    const found = renamed.relations.find(
      (candidate) =>
        candidate.kind === relation.kind && candidate.resource === renamedTarget.name && candidate.foreignKey === key,
    )
    return found?.name ?? null
  }
}
