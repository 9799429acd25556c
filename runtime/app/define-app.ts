import type { FastifyBaseLogger } from 'fastify'
import type { ApiShape, ResourceShape } from './api-shape.js'
import type { OperationHandlers } from './operation-handler.js'

export type { ApiShape, ResourceShape } from './api-shape.js'

/** Who a request is from; null fields when it came without credentials. */
export interface HookCaller {
  /** The `sub` claim (a JWT's subject, an API key's id); null without credentials. */
  readonly subject: string | null
  /** The auth scheme the credentials belong to; null without credentials. */
  readonly scheme: string | null
  readonly scopes: ReadonlySet<string>
}

/** CRUD on one resource in the newest version's names, as server code: no access rules, the storage's semantics. */
export interface ResourceDb<S extends ResourceShape> {
  /** Inserts (omitted fields take their default) and returns the stored record. */
  create(body: S['create']): Promise<S['record']>
  /**
   * The record with this id, or null. `forUpdate`: locked until the
   * transaction ends, so a check of it (not cancelled yet, the total so far)
   * still holds when the write it leads to commits; another request's
   * `forUpdate` read of it waits. Outside a transaction, a plain read.
   */
  read(id: number, options?: { readonly forUpdate?: boolean }): Promise<S['record'] | null>
  /** Records whose fields equal `where`'s (all of them), by id; at most `limit` (default 100). */
  list(options?: { readonly where?: Partial<S['record']>; readonly limit?: number }): Promise<S['record'][]>
  /** Writes the fields `body` has; null when no record has this id. */
  update(id: number, body: S['update']): Promise<S['record'] | null>
  /** Deletes (cascading as the manifest says); false when no record has this id. */
  delete(id: number): Promise<boolean>
}

/** Typed CRUD on every resource: bound to the write's transaction in before- and after-hooks. */
export type AppDb<A extends ApiShape> = { readonly [R in keyof A]: ResourceDb<A[R]> }

/** What every hook gets. */
export interface HookContext<A extends ApiShape> {
  readonly caller: HookCaller
  /** The version the request came through (`v1`); the hook sees the newest version's names whatever it is. */
  readonly version: string
  /** The request's logger. */
  readonly log: FastifyBaseLogger
  readonly db: AppDb<A>
}

/** A hook's result: a before-hook may return a changed body, or nothing to keep the body it got. */
type MaybeBody<B> = B | void | undefined

/**
 * The hooks of one resource. Before-hooks run before the write, outside its
 * transaction, and may return a changed body (validated again) or throw
 * `problem(...)`; after-hooks run inside the write's transaction (a throw
 * rolls it back); `afterCommit` runs once the write is committed and cannot
 * change the response.
 */
export interface ResourceHooks<A extends ApiShape, S extends ResourceShape> {
  beforeCreate?: (context: HookContext<A> & { readonly body: S['create'] }) => Promise<MaybeBody<S['create']>>
  /** PUT and PATCH alike: `body` is the whole record to be written (a PATCH merged over `record`). */
  beforeUpdate?: (
    context: HookContext<A> & { readonly body: S['create']; readonly record: S['record'] },
  ) => Promise<MaybeBody<S['create']>>
  beforeDelete?: (context: HookContext<A> & { readonly record: S['record'] }) => Promise<void>
  afterCreate?: (context: HookContext<A> & { readonly record: S['record'] }) => Promise<void>
  afterUpdate?: (
    context: HookContext<A> & { readonly record: S['record']; readonly previous: S['record'] },
  ) => Promise<void>
  /** `record` is the deleted record. */
  afterDelete?: (context: HookContext<A> & { readonly record: S['record'] }) => Promise<void>
  /** After any committed write: `db` works outside the transaction; errors are logged only. */
  afterCommit?: (context: HookContext<A> & AfterCommitEvent<S>) => Promise<void>
}

/** What `afterCommit` learns about the committed write. */
export type AfterCommitEvent<S extends ResourceShape> =
  | { readonly operation: 'create'; readonly record: S['record'] }
  | { readonly operation: 'update'; readonly record: S['record']; readonly previous: S['record'] }
  | { readonly operation: 'delete'; readonly record: S['record'] }

/** Computes a resource's computed fields for a page of records (list, read, include): one call per page. */
export type ComputeFields<A extends ApiShape, S extends ResourceShape> = (
  records: readonly S['record'][],
  context: Omit<HookContext<A>, 'db'> & { readonly db: AppDb<A> },
) => Promise<readonly Partial<S['record']>[]>

/**
 * The module a manifest's `app:` names: its default export. `A` is the
 * generated `Api` type, which makes every hook's body and record the
 * resource's own types.
 */
export interface AppDefinition<A extends ApiShape = ApiShape> {
  readonly hooks?: { readonly [R in keyof A]?: ResourceHooks<A, A[R]> }
  readonly compute?: { readonly [R in keyof A]?: ComputeFields<A, A[R]> }
  /** Custom operations' handlers, by key; each gets what every hook gets, and the request's input. */
  readonly operations?: OperationHandlers<A, HookContext<A>>
}

/**
 * Declares the module's hooks, computed fields and operations; returns its
 * argument, typed. `export default defineApp<Api>({ hooks: { orders: { … } } })`
 */
export function defineApp<A extends ApiShape>(definition: AppDefinition<A>): AppDefinition<A> {
  return definition
}
