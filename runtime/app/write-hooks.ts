import type { FastifyBaseLogger } from 'fastify'
import type { Row } from '../contract/table-definition.js'
import type { Validator } from '../contract/validator.js'
import type { VersionTranslation } from '../contract/version-translation.js'
import { describeValidationErrors } from '../problems/describe-validation-errors.js'
import { ProblemError, validationFailed, type InvalidParam } from '../problems/problem-error.js'
import type { RowPrecondition, Storage } from '../storage/storage.js'
import { TransactionAbortedError } from '../storage/storage-errors.js'
import type { NewestRoutes } from './create-app-db.js'
import type { HookName } from '../contract/hook-name.js'
import type { AfterCommitEvent, AppDb, HookCaller, HookContext, ResourceHooks } from './define-app.js'
import { isInstance, logAppFailure } from './log-app-failure.js'
import { AppProblemError } from './problem.js'
import { withinDeadline } from './within-deadline.js'

/** What hooks learn about the request they run for. */
export interface HookRequest {
  readonly log: FastifyBaseLogger
  readonly caller: HookCaller
  /** The version the request came through: `v1`. */
  readonly version: string
  /** How that version names fields: pointers of problems are translated to its names. */
  readonly translation: VersionTranslation
}

/** What WriteHooks needs of the running app (AppRuntime): the API's storage, and `db` over any storage. */
export interface HookServices {
  readonly storage: Storage
  /** How long a hook may run (ms; 0: no limit): then it has failed, and its write is rolled back. */
  readonly hookTimeoutMs: number
  dbOver(storage?: Storage): AppDb<any>
}

/**
 * One write's hooks, for one request: the handlers call these around the
 * storage's write, in storage columns; the hooks see the newest version's
 * names, translated both ways here. Before-hooks run outside the write's
 * transaction; after-hooks inside it (a write with none opens none);
 * afterCommit after it.
 */
export class WriteHooks {
  readonly #runtime: HookServices
  readonly #newest: NewestRoutes
  readonly #hooks: ResourceHooks<any, any>
  readonly #request: HookRequest

  constructor(runtime: HookServices, newest: NewestRoutes, hooks: ResourceHooks<any, any>, request: HookRequest) {
    this.#runtime = runtime
    this.#newest = newest
    this.#hooks = hooks
    this.#request = request
  }

  /** beforeCreate: the values to insert (storage columns, defaults filled), as the hook changed them. */
  async beforeCreate(values: Row): Promise<Row> {
    const hook = this.#hooks.beforeCreate
    if (!hook) return values
    const given = this.#toBody(values)
    const body = await this.#call('beforeCreate', () => hook(this.#context({ body: given })))
    return { ...values, ...this.#changes('beforeCreate', given, body) }
  }

  /**
   * beforeUpdate, for PUT and PATCH alike: the hook sees the whole body to be
   * written (`values` merged over the stored row) and the stored record;
   * returns the columns to write: the request's, and any the hook changed.
   */
  async beforeUpdate(values: Row, stored: Row): Promise<Row> {
    const hook = this.#hooks.beforeUpdate
    if (!hook) return values
    const record = this.#newest.translation.rowToVersion(stored)
    const merged = this.#toBody({ ...stored, ...values })
    const body = await this.#call('beforeUpdate', () => hook(this.#context({ body: merged, record })))
    return { ...values, ...this.#changes('beforeUpdate', merged, body) }
  }

  async beforeDelete(stored: Row): Promise<void> {
    const hook = this.#hooks.beforeDelete
    if (!hook) return
    const record = this.#newest.translation.rowToVersion(stored)
    await this.#call('beforeDelete', () => hook(this.#context({ record })))
  }

  /** Runs `insert`, then afterCreate in its transaction, then afterCommit. */
  async create(insert: (storage: Storage) => Promise<Row>): Promise<Row> {
    const after = this.#hooks.afterCreate
    const row = await this.#write(
      insert,
      after && { name: 'afterCreate', run: (storage, record) => after(this.#context({ record }, storage)) },
    )
    await this.#afterCommit(() => ({ operation: 'create', record: this.#record(row) }))
    return row
  }

  /**
   * Runs `update` with a precondition that also captures the row as it stood
   * (read and locked in the transaction), then afterUpdate in the
   * transaction, then afterCommit. Undefined when no row matched.
   */
  async update(
    update: (storage: Storage, precondition: RowPrecondition) => Promise<Row | undefined>,
    precondition: RowPrecondition | undefined,
  ): Promise<Row | undefined> {
    let previous: Row | undefined
    const capture: RowPrecondition = (current) => {
      previous = current
      return precondition ? precondition(current) : true
    }
    const after = this.#hooks.afterUpdate
    const row = await this.#write(
      (storage) => update(storage, capture),
      after && {
        name: 'afterUpdate',
        run: (storage, record) => after(this.#context({ record, previous: this.#record(previous!) }, storage)),
      },
    )
    if (row !== undefined) {
      await this.#afterCommit(() => ({
        operation: 'update',
        record: this.#record(row),
        previous: this.#record(previous!),
      }))
    }
    return row
  }

  /** Runs `remove` capturing the deleted row, then afterDelete in the transaction, then afterCommit. */
  async delete(
    remove: (storage: Storage, precondition: RowPrecondition) => Promise<boolean>,
    precondition: RowPrecondition | undefined,
  ): Promise<boolean> {
    let removed: Row | undefined
    const capture: RowPrecondition = (current) => {
      removed = current
      return precondition ? precondition(current) : true
    }
    const after = this.#hooks.afterDelete
    const deleted = await this.#write(
      (storage) => remove(storage, capture),
      after && {
        name: 'afterDelete',
        run: (storage) => after(this.#context({ record: this.#record(removed!) }, storage)),
      },
    )
    if (deleted) await this.#afterCommit(() => ({ operation: 'delete', record: this.#record(removed!) }))
    return deleted
  }

  /**
   * The write, and its after-hook in the same transaction when there is one
   * (a throw rolls both back); the hook runs only when the write found its row.
   */
  async #write<T extends Row | boolean | undefined>(
    write: (storage: Storage) => Promise<T>,
    after: { name: HookName; run: (storage: Storage, record: object) => Promise<void> } | undefined,
  ): Promise<T> {
    const storage = this.#runtime.storage
    if (!after) return write(storage)
    try {
      return await storage.transaction(async (transaction) => {
        const result = await write(transaction)
        if (result === undefined || result === false) return result
        const record = typeof result === 'object' ? this.#record(result) : {}
        await this.#call(after.name, () => after.run(transaction, record))
        return result
      })
    } catch (error) {
      // The write's own statements are awaited: a failure the work went on after is a `db` write of the hook's
      // that it caught or did not await (PostgreSQL then rolls the whole transaction back).
      if (error instanceof TransactionAbortedError) throw this.#failed(after.name, error.cause)
      throw error
    }
  }

  /** afterCommit, when there is one, with the event `describe` makes. */
  async #afterCommit(describe: () => AfterCommitEvent<any>): Promise<void> {
    const hook = this.#hooks.afterCommit
    if (!hook) return
    try {
      await withinDeadline(() => hook(this.#context(describe())), this.#runtime.hookTimeoutMs)
    } catch (error) {
      // Committed already: the client's answer stands, the failure is the server's to follow up.
      logAppFailure(this.#request.log, { hook: `${this.#newest.name}.afterCommit` }, error, 'afterCommit hook failed')
    }
  }

  /** A hook's argument: `members` and the request's context, `db` over `storage` (the API's when none). */
  #context<T extends object>(members: T, storage?: Storage): HookContext<any> & T {
    return new HookArgument(this.#request, this.#runtime, storage, members) as HookArgument & T
  }

  /**
   * Runs a hook: a problem it throws is answered with its pointers in the
   * request's version's names; anything else is logged with the hook's name
   * and answered `hook_failed`, without its message or stack.
   */
  async #call<T>(name: HookName, run: () => Promise<T>): Promise<T> {
    try {
      return await withinDeadline(run, this.#runtime.hookTimeoutMs)
    } catch (error) {
      if (isInstance(error, AppProblemError)) throw this.#translateProblem(error)
      if (isInstance(error, ProblemError)) throw error
      throw this.#failed(name, error)
    }
  }

  /** hook_failed for `error`, logged with the hook's name; never its message or stack in the answer. */
  #failed(name: HookName, error: unknown): ProblemError {
    const hook = `${this.#newest.name}.${name}`
    logAppFailure(this.#request.log, { hook }, error, `hook ${hook} failed`)
    const rolledBack = name.startsWith('after') ? '; the write was rolled back' : '; nothing was written'
    return new ProblemError('hook_failed', `The server's ${name} hook of ${this.#newest.name} failed${rolledBack}.`)
  }

  #translateProblem(error: AppProblemError): AppProblemError {
    const pointers: Record<string, string> = {}
    for (const [pointer, detail] of Object.entries(error.pointers)) pointers[this.#toRequestPointer(pointer)] = detail
    return new AppProblemError(error.status, error.appCode, error.detail, pointers)
  }

  /** `/content` in the newest version's names → `/body` in v1's. */
  #toRequestPointer(pointer: string): string {
    const [, field, ...rest] = pointer.split('/')
    if (field === undefined) return pointer
    const named = this.#request.translation.fieldOf(this.#newest.translation.columnOf(field))
    return ['', named, ...rest].join('/')
  }

  /**
   * What a before-hook changed in the body it was `given`, in storage
   * columns: the members it set to another value (members it left out stay
   * as they were). Checked as a client's PATCH of them would be, in the
   * newest version's names, else 400 naming what is wrong.
   */
  #changes(name: HookName, given: Row, returned: unknown): Row {
    if (returned === undefined || returned === null) return {}
    let members: [string, unknown][]
    try {
      if (typeof returned !== 'object' || Array.isArray(returned)) throw new TypeError(`not a body`)
      members = Object.entries(returned)
    } catch (error) {
      // Anything but a plain object, a Proxy that refuses to be read included.
      throw this.#failed(name, new TypeError(`a before-hook returned ${typeof returned}, not a body`, { cause: error }))
    }
    const changed: Row = {}
    for (const [field, value] of members) {
      // A member set to undefined is one left out, as in JSON: it keeps its value.
      if (value !== undefined && !Object.is(value, given[field])) changed[field] = value as Row[string]
    }
    return this.#newest.translation.bodyToStorage(this.#check(this.#newest.bodies.updateBody, changed), false)
  }

  /** A changed body, checked as a client's would be (in the newest version's names), else 400 naming what is wrong. */
  #check(validator: Validator<object>, body: unknown): Row {
    if (validator(body)) return body as Row
    const view = this.#newest.translation.view
    const errors: InvalidParam[] = describeValidationErrors(validator.errors ?? [], {
      table: view,
      known: view.columns.filter((column) => !column.readOnly && column.owner === undefined).map((c) => c.name),
    }).map((error) => (error.pointer ? { ...error, pointer: this.#toRequestPointer(error.pointer) } : error))
    throw validationFailed('body', errors)
  }

  /** Storage values as the body a client of the newest version would send: its writable fields only. */
  #toBody(values: Row): Row {
    const record = this.#newest.translation.rowToVersion(values)
    const body: Row = {}
    for (const column of this.#newest.translation.view.columns) {
      if (column.readOnly || column.owner !== undefined) continue
      const value = record[column.name]
      if (value !== undefined) body[column.name] = value
    }
    return body
  }

  #record(row: Row): object {
    return this.#newest.translation.rowToVersion(row)
  }
}

/**
 * A hook's argument: `members`, the request's context and `db` (its own
 * properties, so a spread copy keeps them). A class rather than an object
 * literal: it is made for every hook call, and V8 builds an instance far faster.
 */
class HookArgument implements HookContext<any> {
  readonly caller: HookCaller
  readonly version: string
  readonly log: FastifyBaseLogger
  readonly db: AppDb<any>

  constructor(request: HookRequest, services: HookServices, storage: Storage | undefined, members: object) {
    Object.assign(this, members)
    this.caller = request.caller
    this.version = request.version
    this.log = request.log
    // Cheap until a hook reads one of its resources (createAppDb).
    this.db = services.dbOver(storage)
  }
}
