import type { ResourceRoutes } from '../contract/resource-routes.js'
import type { RelationDefinition, Row, TableDefinition } from '../contract/table-definition.js'
import { ProblemError } from '../problems/problem-error.js'
import { identityTranslation } from '../contract/version-translation.js'
import type { Storage } from '../storage/storage.js'
import { createAppDb, type NewestRoutes } from './create-app-db.js'
import type { AppDb, AppDefinition, ResourceHooks } from './define-app.js'
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
  readonly #computed: Readonly<Record<string, readonly string[]>>

  /** `computed`: each resource's computed fields, as the manifest declares them. */
  constructor(
    app: AppDefinition<any>,
    storage: Storage,
    tables: ReadonlyMap<string, TableDefinition>,
    computed: Readonly<Record<string, readonly string[]>>,
  ) {
    this.#app = app
    this.#storage = storage
    this.#tables = tables
    this.#computed = computed
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
    const names = newest && this.#computed[newest.name]
    const compute = newest && this.#app.compute?.[newest.name]
    if (!newest || !names || !compute || rows.length === 0) return
    const records = rows.map((row) => newest.translation.rowToVersion(row))
    let values: readonly Record<string, unknown>[]
    try {
      const { caller, version, log } = request
      values = (await compute(records, { caller, version, log, db: this.dbOver() })) as Record<string, unknown>[]
    } catch (error) {
      const name = `${newest.name}.compute`
      request.log.error({ err: error, hook: name }, `compute function ${name} failed`)
      if (!request.afterWrite)
        throw new ProblemError('hook_failed', `The server's compute function of ${newest.name} failed.`)
      values = []
    }
    rows.forEach((row, index) => {
      for (const name of names) row[name] = (values[index]?.[name] ?? null) as Row[string]
    })
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
