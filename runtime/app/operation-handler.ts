import type { FastifyBaseLogger } from 'fastify'
import type { ApiShape, AppDb, HookCaller } from './define-app.js'

/**
 * The key under which a generated `Api` type lists its custom operations
 * (`generated/<version>/operations/types.ts`'s `Operations`): a symbol, so no
 * resource name can clash with it and `ApiShape`'s resources stay as they are.
 */
export const API_OPERATIONS: unique symbol = Symbol('restmint.operations')

/** What a generated `Operations` type says about one operation. */
export interface OperationShape {
  /** Path parameters, each an id: `{ order_id: number }`. */
  readonly params: object
  /** Query parameters, read as their declared types. */
  readonly query: object
  /** The validated body; `undefined` when the operation takes none. */
  readonly body: unknown
  /** What the handler returns: a record (`responds: <resource>`), its own shape, or `undefined` (204). */
  readonly response: unknown
}

/** The operations of an `Api`, by handler key; none when it declares none. */
export type OperationsOf<A> = A extends { readonly [API_OPERATIONS]: infer O } ? O : Record<never, never>

/** What an operation's handler gets: the request's checked input, the caller, and server-side `db`. */
export interface OperationContext<A extends ApiShape, O extends OperationShape> {
  readonly params: O['params']
  readonly query: O['query']
  readonly body: O['body']
  readonly caller: HookCaller
  /** The version the request came through (`v1`); handlers are written against the newest version's names. */
  readonly version: string
  /** Typed CRUD on every resource, without access rules (server code), in its own transaction per call. */
  readonly db: AppDb<A>
  /** The request's logger. */
  readonly log: FastifyBaseLogger
}

/**
 * The handler of one custom operation declared in the manifest, keyed
 * `<resource>.<operation>.<method name>` (GET list, POST create, PUT replace,
 * PATCH update, DELETE delete). It returns the response's data, which is
 * checked against the declaration (a record is translated to the request's
 * version), or throws `problem(...)`.
 */
export type OperationHandler<A extends ApiShape, O extends OperationShape> = (
  context: OperationContext<A, O>,
) => Promise<O['response']>

/** Every custom operation's handler, by key: a missing or misspelt key fails `tsc` as well as `restmint check`. */
export type OperationHandlers<A extends ApiShape> = {
  readonly [K in keyof OperationsOf<A>]: OperationsOf<A>[K] extends OperationShape
    ? OperationHandler<A, OperationsOf<A>[K]>
    : never
}
