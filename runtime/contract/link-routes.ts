import type { RouteMethod } from './resource-routes.js'

/**
 * The routes of a many-to-many relation, nested once under one record of the
 * resource declaring it: list and link on the collection, unlink on the item
 * (`/posts/{post_id}/tags`, `/posts/{post_id}/tags/{tag_id}`). The generator
 * documents these paths and the runtime registers them, from this one
 * definition.
 */
export interface LinkRoute {
  readonly kind: 'collection' | 'item'
  readonly methods: readonly RouteMethod[]
  /** OpenAPI form, without the version prefix. */
  readonly path: string
  /** Fastify form of `path`. */
  readonly url: string
}

/** A relation's path segment: `tags`, `related-posts` for `related_posts` (paths are hyphenated). */
export function relationPathSegment(relation: string): string {
  return relation.replaceAll('_', '-')
}

/**
 * `sourceParam` is the join's key holding the declaring record's id
 * (`post_id`), `targetParam` the one holding the target's (`tag_id`): the
 * same names as the join resource's fields, so the link body and the path
 * agree.
 */
export function listLinkRoutes(
  resource: string,
  relation: string,
  sourceParam: string,
  targetParam: string,
): LinkRoute[] {
  const base = `/${resource}/{${sourceParam}}/${relationPathSegment(relation)}`
  const item = `${base}/{${targetParam}}`
  return [
    { kind: 'collection', methods: ['GET', 'POST'], path: base, url: toUrl(base) },
    { kind: 'item', methods: ['DELETE'], path: item, url: toUrl(item) },
  ]
}

function toUrl(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1')
}
