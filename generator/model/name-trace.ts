import {
  type RelationModel,
  type ResourceModel,
  type RouteModel,
  type VersionModel,
  findResource,
} from './api-model.js'

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
    const renamed = this.#older.toNewer?.get(name)?.name
    return this.#newer.resources.find((resource) => resource.name === renamed) ?? null
  }

  /** The newer name of `field` (or key) of older `resource`; null when the newer resource does not have it. */
  field(resource: ResourceModel, field: string): string | null {
    const renamed = this.resource(resource.name)
    const traced = this.#older.toNewer?.get(resource.name)?.fields.get(field)
    // Fields not traced (the server's, the owner) keep their names.
    const name = traced === undefined ? field : traced
    return renamed?.fields.some((candidate) => candidate.name === name) ? name : null
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

  /** The newer name of `relation` of older `resource`; null when the newer resource does not have it. */
  relation(resource: ResourceModel, relation: RelationModel): string | null {
    const renamed = this.resource(resource.name)
    const name = this.#older.toNewer?.get(resource.name)?.relations.get(relation.name)
    return renamed?.relations.some((candidate) => candidate.name === name) ? name! : null
  }
}
