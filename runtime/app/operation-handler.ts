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

/**
 * What an operation's handler gets besides what every hook gets (`Base`:
 * caller, version, `db` without access rules, `log`): the request's checked
 * input, typed by the operation's declaration.
 */
export type OperationContext<Base, O extends OperationShape> = Base & {
  /** Path parameters, each an id: `{ order_id: 1 }`. */
  readonly params: O['params']
  /** Query parameters, read as their declared types. */
  readonly query: O['query']
  /** The validated body; `undefined` when the operation takes none. */
  readonly body: O['body']
}

/**
 * The handler of one custom operation declared in the manifest, keyed
 * `<resource>.<operation>.<method name>` (GET list, POST create, PUT replace,
 * PATCH update, DELETE delete). It returns the response's data, which is
 * checked against the declaration (a record is shown in the request's
 * version's names), or throws `problem(...)`. Handlers are written against the
 * newest version's names, as hooks are.
 */
export type OperationHandler<Base, O extends OperationShape> = (
  context: OperationContext<Base, O>,
) => Promise<O['response']>

/** Every custom operation's handler of an `Api`, by key: a missing or misspelt key fails `tsc` as well as `restmint check`. */
export type OperationHandlers<A, Base> = {
  readonly [K in keyof OperationsOf<A>]: OperationsOf<A>[K] extends OperationShape
    ? OperationHandler<Base, OperationsOf<A>[K]>
    : never
}
