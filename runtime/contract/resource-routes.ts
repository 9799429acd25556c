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
}

export interface ResourceRoute {
  readonly kind: 'collection' | 'item'
  /** List and create on a collection; read, replace, update and delete on an item. */
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
 */
export function listResourceRoutes(resource: string, nestedUnder: NestedUnder | null): ResourceRoute[] {
  const routes = [route('collection', [resource], null, null), route('item', [resource, '{id}'], 'id', null)]
  if (nestedUnder === null) return routes
  const base = [nestedUnder.parentResource, `{${nestedUnder.parentKey}}`, resource]
  return [
    ...routes,
    route('collection', base, null, nestedUnder),
    route('item', [...base, `{${nestedUnder.idParam}}`], nestedUnder.idParam, nestedUnder),
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
