import type { AccessRule } from './access-rule.js'
import type { FieldType } from './field-type.js'
import type { RatePolicy } from './rate-policy.js'
import type { RouteMethod } from './resource-routes.js'
import type { TableDefinition } from './table-definition.js'
import type { Validator } from './validator.js'
import type { VersionTranslation } from './version-translation.js'

/**
 * What names a custom operation's handler after its HTTP method, as CRUD
 * does: `orders.cancellations.create` is `POST /orders/{order_id}/cancellations`.
 */
export const OPERATION_METHOD_NAMES = {
  GET: 'list',
  POST: 'create',
  PUT: 'replace',
  PATCH: 'update',
  DELETE: 'delete',
} as const satisfies Readonly<Record<RouteMethod, string>>

/** The app module's key of an operation's handler: `<resource>.<operation>.<method name>`. */
export function operationHandlerKey(resource: string, operation: string, method: RouteMethod): string {
  return `${resource}.${operation}.${OPERATION_METHOD_NAMES[method]}`
}

/** Everything a generated `<version>/operations.ts` says about one custom operation: data, no code. */
export interface OperationRoute {
  /** The app module's key of its handler: `orders.cancellations.create`. */
  readonly handler: string
  readonly method: RouteMethod
  /** Fastify form, without the version prefix: `/orders/:order_id/cancellations`. */
  readonly url: string
  /** The success status. */
  readonly status: number
  /** On one record: its table and the path parameter naming it (404 when no such record, or hidden from the caller). */
  readonly target?: { readonly table: TableDefinition; readonly param: string }
  /** The body's fields (named when an unknown one is sent) and validator; absent: the operation takes no body. */
  readonly body?: { readonly fields: readonly string[]; readonly validator: Validator<object> }
  /** Query parameters: each one's type (query strings are text until read), then the validator of the typed values. */
  readonly query?: { readonly fields: Readonly<Record<string, FieldType>>; readonly validator: Validator<object> }
  /**
   * What it answers: a record of a table (in `{ data }`, translated like a
   * read of it), a shape of its own (in `{ data }`, checked by `validator`),
   * or nothing (204).
   */
  readonly responds?:
    | { readonly kind: 'record'; readonly table: TableDefinition; readonly translation?: VersionTranslation }
    | { readonly kind: 'shape'; readonly validator: Validator<unknown> }
  /** Who may call it; absent without `auth:` (public). `owner` admits the owner of `target`. */
  readonly access?: readonly AccessRule[]
  /** The resource's own rate limit, in place of the API's. */
  readonly rate?: RatePolicy
}
