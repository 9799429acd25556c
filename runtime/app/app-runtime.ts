import type { ResourceRoutes } from '../contract/resource-routes.js'
import type { ColumnValue, RelationDefinition, Row, TableDefinition } from '../contract/table-definition.js'
import { ProblemError } from '../problems/problem-error.js'
import { identityTranslation } from '../contract/version-translation.js'
import type { FieldType } from '../contract/field-type.js'
import { RejectedValue } from '../storage/rejected-value.js'
import type { Storage } from '../storage/storage.js'
import { checkColumnValue } from '../storage/value-codec.js'
import { createAppDb, type NewestRoutes } from './create-app-db.js'
import type { AppDb, AppDefinition, ResourceHooks } from './define-app.js'
import { logAppFailure } from './log-app-failure.js'
import { withinDeadline } from './within-deadline.js'
import { WriteHooks, type HookRequest } from './write-hooks.js'

/** What a compute function learns about the request. */
export type ComputeRequest = Pick<HookRequest, 'log' | 'caller' | 'version'> & {
  /**
   * The rows answer a write that has committed: a compute function that fails
   * leaves their computed fields null (and is logged) rather than answering
   * 500 for a write that stands, which a client would retry.
   */
  readonly afterWrite?: boolean
}

/**
 * The app module in a running API: which resources have hooks, and `db` over
 * any storage. Learns the newest version's resources as its routes register
 * (`recordNewest`), since hooks and `db` speak that version's names whichever
 * version a request came through.
 */
export class AppRuntime {
  readonly #app: AppDefinition<any>
  readonly #storage: Storage
  readonly #tables: ReadonlyMap<string, TableDefinition>
  /** By table name. */
  readonly #newest = new Map<string, NewestRoutes>()
  /** By the newest version's resource name. */
  readonly #byName = new Map<string, NewestRoutes>()
  #db: AppDb<any> | undefined
  readonly #computed: Readonly<Record<string, Readonly<Record<string, FieldType>>>>
  readonly hookTimeoutMs: number

  /**
   * `computed`: each resource's computed fields and their types, as the
   * manifest declares them; `hookTimeoutMs`: how long a hook, compute function or operation's
   * handler may run (0: no limit).
   */
  constructor(
    app: AppDefinition<any>,
    storage: Storage,
    tables: ReadonlyMap<string, TableDefinition>,
    computed: Readonly<Record<string, Readonly<Record<string, FieldType>>>>,
    hookTimeoutMs: number,
  ) {
    this.#app = app
    this.#storage = storage
    this.#tables = tables
    this.#computed = computed
    this.hookTimeoutMs = hookTimeoutMs
  }

  /**
   * Sets the computed fields of `rows` of `table`, and of the rows `include`
   * (storage paths) embeds in them: one call of each resource's compute
   * function per page. A compute function that throws answers 500
   * `hook_failed`, logged with its name.
   */
  async computeRows(
    table: TableDefinition,
    rows: Row[],
    include: readonly string[],
    request: ComputeRequest,
  ): Promise<void> {
    await this.#compute(table, rows, request)
    for (const path of include) {
      let current: TableDefinition | undefined = table
      let found: Row[] = rows
      for (const name of path.split('.')) {
        const relation: RelationDefinition | undefined = current?.relations?.find(
          (candidate) => candidate.name === name,
        )
        current = relation && this.#tables.get(relation.table)
        found = found.flatMap((row) => {
          const embedded = row[name] as unknown as Row | Row[] | null | undefined
          return embedded === null || embedded === undefined ? [] : Array.isArray(embedded) ? embedded : [embedded]
        })
      }
      if (current) await this.#compute(current, found, request)
    }
  }

  async #compute(table: TableDefinition, rows: Row[], request: ComputeRequest): Promise<void> {
    const newest = this.#newest.get(table.name)
    const fields = newest && this.#computed[newest.name]
    const compute = newest && this.#app.compute?.[newest.name]
    if (!newest || !fields || !compute || rows.length === 0) return
    const names = Object.keys(fields)
    const records = rows.map((row) => newest.translation.rowToVersion(row))
    let values: ColumnValue[][]
    try {
      const { caller, version, log } = request
      const computed = await withinDeadline(
        () => compute(records, { caller, version, log, db: this.dbOver() }),
        this.hookTimeoutMs,
      )
      values = readComputedValues(computed, rows.length, fields)
    } catch (error) {
      const name = `${newest.name}.compute`
      logAppFailure(request.log, { hook: name }, error, `compute function ${name} failed`)
      if (!request.afterWrite)
        throw new ProblemError('hook_failed', `The server's compute function of ${newest.name} failed.`)
      values = rows.map(() => names.map(() => null))
    }
    rows.forEach((row, index) => names.forEach((name, at) => (row[name] = values[index]![at]!)))
  }

  /** Remembers how the newest version serves a resource; called as each of its resources registers. */
  recordNewest(resource: ResourceRoutes): void {
    const translation = resource.translation ?? identityTranslation(resource.table, this.#tables)
    const routes = { name: translation.view.resource, table: resource.table, translation, bodies: resource.bodies }
    this.#newest.set(resource.table.name, routes)
    this.#byName.set(routes.name, routes)
  }

  /** The hooks of the resource stored in `table` for one request; null when it has none. */
  openWriteHooks(table: TableDefinition, request: HookRequest): WriteHooks | null {
    const newest = this.#newest.get(table.name)
    const hooks = newest && (this.#app.hooks?.[newest.name] as ResourceHooks<any, any> | undefined)
    if (!newest || !hooks) return null
    return new WriteHooks(this, newest, hooks, request)
  }

  /** `db` over `storage` (a transaction's), or over the API's storage outside any transaction. */
  dbOver(storage?: Storage): AppDb<any> {
    if (storage === undefined) return (this.#db ??= createAppDb(this.#storage, this.#byName))
    return createAppDb(storage, this.#byName)
  }

  get storage(): Storage {
    return this.#storage
  }
}

/**
 * A compute function's answer as each record's values of `fields`, in their
 * order: one object per record, each member a value of its declared type, as
 * storage would check it (a member left out is null). Anything else is a bug
 * in the function, thrown as a TypeError and handled as its failure, never sent.
 */
function readComputedValues(
  computed: unknown,
  count: number,
  fields: Readonly<Record<string, FieldType>>,
): ColumnValue[][] {
  if (!Array.isArray(computed) || computed.length !== count) {
    const given = Array.isArray(computed) ? `${computed.length} values` : typeof computed
    throw new TypeError(`a compute function must return one object per record (${count}), not ${given}`)
  }
  return computed.map((values: unknown, index) => {
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      throw new TypeError(`a compute function returned ${typeof values} for record ${index}, not an object`)
    }
    return Object.entries(fields).map(([name, type]) => {
      const value = (values as Record<string, unknown>)[name]
      if (value === undefined || value === null) return null
      try {
        return checkColumnValue(type, value as Exclude<ColumnValue, null>)
      } catch (error) {
        const reason = error instanceof RejectedValue ? error.message : `must be a ${type}`
        throw new TypeError(`a compute function returned ${String(value)} as ${name}, which ${reason}`)
      }
    })
  })
}
