import type { RelationModel, ResourceModel, RouteModel, VersionModel } from './api-model.js'
import { findResource } from './find-resource.js'

/** The newer version's name of each thing the older version names, following the newer version's changes. */
export class NameTrace {
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
    const successor = this.successorRoute(resource, renamed, route)
    return successor && successor.route.path + successor.query
  }

  /**
   * The newer route that serves what `route` of older `resource` (now
   * `renamed`) serves: the same kind of route, nested under the same parent;
   * once re-rooted, the top-level one, whose collection `query` keeps to the
   * old parent's records (`?post_id={post_id}`, named as the older route
   * names its parameter) when the key has an exact filter. Null when gone.
   */
  successorRoute(
    resource: ResourceModel,
    renamed: ResourceModel,
    route: RouteModel,
  ): { readonly route: RouteModel; readonly query: string } | null {
    const nested = route.nestedUnder
    const parent = nested && this.resource(nested.parentResource)
    const same = renamed.routes.find(
      (candidate) =>
        candidate.kind === route.kind &&
        (nested === null ? candidate.nestedUnder === null : candidate.nestedUnder?.parentResource === parent?.name),
    )
    if (same) return { route: same, query: '' }
    const topLevel = renamed.routes.find((candidate) => candidate.kind === route.kind && candidate.nestedUnder === null)
    if (!nested || !topLevel) return null
    const key = this.field(resource, nested.parentKey)
    const filtered =
      key !== null && renamed.filters.some((filter) => filter.field === key && filter.operators.includes('eq'))
    return { route: topLevel, query: route.kind === 'collection' && filtered ? `?${key}={${nested.parentKey}}` : '' }
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
