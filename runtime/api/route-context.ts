import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AccessControl, AccessGrant } from '../access/authorize-request.js'
import { grantOf } from '../access/authorize-route.js'
import type { ApiLimits } from '../contract/api-limits.js'
import type { TableDefinition } from '../contract/table-definition.js'
import type { VersionTranslation } from '../contract/version-translation.js'
import type { IncludeNames } from '../include/include-relations.js'
import { noRoute } from '../problems/handle-errors.js'
import { validationFailed, type InvalidParam } from '../problems/problem-error.js'
import type { CursorCodec } from '../query/page-cursor.js'
import type { QueryContext } from '../query/read-query.js'
import type { Storage } from '../storage/storage.js'
import type { Validator } from '../contract/validator.js'
import type { AppRuntime } from '../app/app-runtime.js'

/** What every route of the API shares: the storage, the limits, the tables by name, cursors and access rules. */
export interface ApiServices {
  readonly storage: Storage
  readonly limits: ApiLimits
  readonly tables: ReadonlyMap<string, TableDefinition>
  readonly cursors: CursorCodec
  readonly access: AccessControl
  /** The app module's hooks and `db`; null without `app:`. */
  readonly app: AppRuntime | null
}

/** A nested route's link to its parent: `/orders/:order_id/items` → orders, order_id. */
export interface ParentLink {
  readonly parent: TableDefinition
  /** The parent's singular as the route's version names it, for messages. */
  readonly parentSingular: string
  /** The path parameter naming the parent: `order_id`. */
  readonly param: string
  /** The storage column holding the parent's id. */
  readonly column: string
}

/**
 * What a many-to-many's routes (`/posts/{post_id}/tags[/{tag_id}]`) know:
 * the resource declaring it, the join, and the target. The join's keys are
 * also the path parameters.
 */
export interface LinkContext {
  readonly source: TableDefinition
  /** The join's key holding the source's id, and the path parameter naming it: `post_id`. */
  readonly sourceParam: string
  readonly join: TableDefinition
  /** The join's key holding the target's id, and the item route's parameter: `tag_id`. */
  readonly targetParam: string
  readonly target: TableDefinition
}

/** What the handlers of one route know before any request: worked out once, when the route is registered. */
export interface RouteContext {
  readonly api: ApiServices
  readonly table: TableDefinition
  /** Between the route's version and the storage; identity when the version's records are the storage's rows. */
  readonly translation: VersionTranslation
  /** How the version names what includes embed. */
  readonly includeNames: IncludeNames
  /** Reading the route's query: its rules and the names it takes, in the version's names. */
  readonly query: QueryContext
  /** Set on nested routes, and on a many-to-many's link and unlink routes (the source is their parent). */
  readonly parentLink: ParentLink | null
  /** Set on a many-to-many's routes (register-links.ts). */
  readonly link?: LinkContext
  /** The path parameter of one record (`id`, `item_id`); null on collections. */
  readonly idParam: string | null
  /** PUT, PATCH and DELETE without `If-Match` answer 428 (the manifest's `concurrency.require_if_match`). */
  readonly requireIfMatch: boolean
  /** Where the route is mounted: the version prefix (`/v1`), which links start with. */
  readonly prefix: string
  /** The body validators of the route's kind: the nested ones (without the parent key) on nested routes. */
  readonly bodies: RouteBodies
}

export interface RouteBodies {
  readonly create: Validator<object>
  readonly replace: Validator<object>
  readonly update: Validator<object>
}

/** What answers one method of a route: the route's context is worked out once, the request's per call. */
export type RouteHandler = (route: RouteContext, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>

/** One request to one route: what every handler and helper takes, in place of long parameter lists. */
export interface RequestContext {
  readonly route: RouteContext
  readonly request: FastifyRequest
  readonly reply: FastifyReply
  /** What the caller may touch, as the authorization preHandler granted it. */
  readonly grant: AccessGrant
  /** The path parameters, checked: every one an id. */
  readonly params: Readonly<Record<string, number>>
}

/** Opens a request to `route`: its grant (authorizeRoutes ran before) and its checked path parameters. */
export function openRequest(route: RouteContext, request: FastifyRequest, reply: FastifyReply): RequestContext {
  return { route, request, reply, grant: grantOf(request), params: validatePathParams(request) }
}

/** The id of the record an item route names. */
export function recordIdOf(context: RequestContext): number {
  return context.params[context.route.idParam!]!
}

/**
 * Path parameters are ids: positive safe integers written in canonical form
 * (`1e3`, `0x10`, ` 1` or `01` are not ids, though a number parser would take
 * them), as the OpenAPI document declares them. An empty one is a trailing
 * slash, which names no route.
 */
export function validatePathParams(request: FastifyRequest): Record<string, number> {
  const params: Record<string, number> = {}
  const errors: InvalidParam[] = []
  for (const [name, value] of Object.entries(request.params as Record<string, string>)) {
    if (value === '') throw noRoute(request)
    const id = Number(value)
    if (!CANONICAL_ID.test(value)) errors.push({ in: 'path', name, detail: 'must be a positive integer' })
    else if (id > Number.MAX_SAFE_INTEGER)
      errors.push({ in: 'path', name, detail: `must be <= ${Number.MAX_SAFE_INTEGER}` })
    else params[name] = id
  }
  if (errors.length > 0) throw validationFailed('path', errors)
  return params
}

const CANONICAL_ID = /^[1-9][0-9]{0,15}$/
