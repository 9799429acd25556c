import type { FastifyInstance } from 'fastify'
import type { TableDefinition } from './table-definition.js'
import type { Validator } from './validator.js'
import type { QueryRules } from './query-rules.js'
import type { RatePolicy } from './rate-policy.js'
import type { VersionTranslation } from './version-translation.js'

/** Where a nested resource hangs: under one record of its parent's top-level collection. */
export interface NestedUnder {
  /** The parent's collection path segment: `orders`. */
  readonly parentResource: string
  /** The path parameter naming the parent, also the child's foreign key column: `order_id`. */
  readonly parentKey: string
  /** The path parameter naming one child on the nested item route: `item_id`. */
  readonly idParam: string
}

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

const METHODS: Readonly<Record<ResourceRoute['kind'], readonly RouteMethod[]>> = {
  collection: ['GET', 'POST'],
  item: ['GET', 'PUT', 'PATCH', 'DELETE'],
  aggregates: ['GET'],
}

/**
 * The path segment of a collection's aggregates: a plural noun, never an id
 * (ids are integers), so `/posts/aggregates` cannot be read as the item route
 * `/posts/{id}`; a nested resource sits one segment deeper
 * (`/posts/{post_id}/<children>`), so none can be named like it either.
 */
export const AGGREGATES_SEGMENT = 'aggregates'

export interface ResourceRoute {
  readonly kind: 'collection' | 'item' | 'aggregates'
  /** List and create on a collection; read, replace, update and delete on an item; read of the aggregates. */
  readonly methods: readonly RouteMethod[]
  /** OpenAPI form, without the version prefix: `/orders/{order_id}/items/{item_id}`. */
  readonly path: string
  /** Fastify form of `path`: `/orders/:order_id/items/:item_id`. */
  readonly url: string
  /** Path parameters in order: every one a positive integer id. */
  readonly params: readonly string[]
  /** Path parameter of the record itself (`id`, or `item_id` when nested); null on collections. */
  readonly idParam: string | null
  /** Set on nested routes. */
  readonly nestedUnder: NestedUnder | null
}

/**
 * The routes of resource `resource`, top-level first: its collection and
 * item, then, when it has a parent, the same nested once under the parent's
 * top-level item (`/orders/{order_id}/items[/{item_id}]`), so nesting never
 * goes deeper however long the parent chain is. The generator documents
 * these paths and the runtime registers them, from this one definition.
 * With `aggregates` (the manifest's `aggregate:`), each collection has its
 * aggregates route after it: `/orders/{order_id}/items/aggregates`.
 */
export function listResourceRoutes(
  resource: string,
  nestedUnder: NestedUnder | null,
  aggregates = false,
): ResourceRoute[] {
  const aggregatesOf = (collection: readonly string[], nested: NestedUnder | null) =>
    aggregates ? [route('aggregates', [...collection, AGGREGATES_SEGMENT], null, nested)] : []
  const routes = [
    route('collection', [resource], null, null),
    route('item', [resource, '{id}'], 'id', null),
    ...aggregatesOf([resource], null),
  ]
  if (nestedUnder === null) return routes
  const base = [nestedUnder.parentResource, `{${nestedUnder.parentKey}}`, resource]
  return [
    ...routes,
    route('collection', base, null, nestedUnder),
    route('item', [...base, `{${nestedUnder.idParam}}`], nestedUnder.idParam, nestedUnder),
    ...aggregatesOf(base, nestedUnder),
  ]
}

function route(
  kind: ResourceRoute['kind'],
  segments: readonly string[],
  idParam: string | null,
  nestedUnder: NestedUnder | null,
): ResourceRoute {
  const params = segments.filter((segment) => segment.startsWith('{')).map((segment) => segment.slice(1, -1))
  return {
    kind,
    methods: METHODS[kind],
    path: `/${segments.join('/')}`,
    url: `/${segments.map((segment) => (segment.startsWith('{') ? `:${segment.slice(1, -1)}` : segment)).join('/')}`,
    params,
    idParam,
    nestedUnder,
  }
}

/** A resource's body validators, as its generated `<resource>-bodies.js` exports them. */
export interface ResourceBodies {
  readonly createBody: Validator<object>
  readonly replaceBody: Validator<object>
  readonly updateBody: Validator<object>
  /** Nested resources: the same without the parent key, which comes from the path. */
  readonly nestedCreateBody?: Validator<object>
  readonly nestedReplaceBody?: Validator<object>
  readonly nestedUpdateBody?: Validator<object>
}

/** Everything a generated routes file says about one resource: data, no code. */
export interface ResourceRoutes {
  readonly table: TableDefinition
  readonly rules: QueryRules
  readonly bodies: ResourceBodies
  /** Set when the resource is also served under its parent: `/orders/{order_id}/items[/{item_id}]`. */
  readonly nestedUnder?: {
    readonly parent: TableDefinition
    /** The parent's path parameter, which is also this table's foreign key column: `order_id`. */
    readonly parentKey: string
    /** The path parameter of one record on the nested item route: `item_id`. */
    readonly idParam: string
    /** The parent as the version names it, when its table is named otherwise (a renamed resource). */
    readonly parentNames?: { readonly resource: string; readonly singular: string }
  }
  /** An older version's routes: they validate in its names and translate to and from the storage's rows. */
  readonly translation?: VersionTranslation
  /** PUT, PATCH and DELETE require `If-Match` (the manifest's `concurrency: { require_if_match: true }`). */
  readonly requireIfMatch?: boolean
  /** The resource's own rate limit (the manifest's `rate`), in place of the API's. */
  readonly rate?: RatePolicy
  /**
   * Its many-to-many relations, by name: the link body's validator (the join's
   * create body without the path's key) and the target's query rules, for
   * `/<resource>/{id}/<relation>[/{target_id}]` (link-routes.ts).
   */
  readonly links?: Readonly<Record<string, { readonly body: Validator<object>; readonly rules: QueryRules }>>
}

/** What a generated version index calls once per resource. */
export type RegisterResource = (app: FastifyInstance, resource: ResourceRoutes) => void
