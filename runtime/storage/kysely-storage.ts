import { isTextMatchOperator } from '../contract/filter-operator.js'
import { SOFT_DELETE_FIELD, type ServerManagedField } from '../contract/field-type.js'
import type { DeletedVisibility } from '../contract/query-rules.js'
import type { ColumnDefinition, ColumnValue, Row, TableDefinition } from '../contract/table-definition.js'
import { collectRestrictChecks, type RestrictCheck } from './collect-restrict-checks.js'
import { mapConstraintNames, type ConstrainedColumn } from './constraint-names.js'
import { buildCreateStatements } from './build-create-statements.js'
import { findSchemaDifferences } from './find-schema-differences.js'
import { describeIndexedTextLimit, listIndexedTextLimits, type IndexedTextLimit } from './indexed-text-limits.js'
import { afterName } from './keyset-condition.js'
import {
  afterKey,
  aggregateKey,
  filtersKey,
  resolveAggregateTerms,
  likePattern,
  resolveFilters,
  resolveSortKeys,
  sortKey,
  type ListShape,
} from './list-shape.js'
import { QueryCache, type CachedQuery } from './query-cache.js'
import { bindParameters, type ParameterEncoding, type QueryArguments } from './query-parameter.js'
import { sortTablesByDependency } from './sort-tables-by-dependency.js'
import { aggregateResultKind } from '../contract/aggregate-result-kind.js'
import type {
  AggregateGroup,
  AggregateOptions,
  Filter,
  LinkedRow,
  LinkTable,
  ListOptions,
  ListResult,
  PrepareOptions,
  PurgeResult,
  RowPrecondition,
  RowFilter,
  SortKey,
  Storage,
} from './storage.js'
import type { SqlDriver, SqlExecutor, SqlRow, StorageDialect } from './storage-dialect.js'
import {
  InvalidValueError,
  ConstraintViolationError,
  MissingReferenceError,
  PreconditionFailedError,
  RowReferencedError,
  SchemaMismatchError,
  UniqueViolationError,
} from './storage-errors.js'
import {
  aggregateAlias,
  buildAggregateQuery,
  buildCountQuery,
  buildDeleteQuery,
  buildExistsQuery,
  buildPurgeBatchQuery,
  buildPurgeDeleteQuery,
  buildSoftDeleteQuery,
  buildFindQuery,
  buildInsertQuery,
  buildListQuery,
  buildMatchingQuery,
  buildLockQuery,
  type RowLock,
  buildRestrictCountQuery,
  buildUpdateQuery,
  buildWhereInQuery,
  buildLinkedQuery,
  COUNT,
  filterName,
  groupAlias,
  hopRowFilterName,
  LINK_OWNER,
  ID,
  LIMIT,
  matchDeleted,
  OFFSET,
  PURGE_AFTER,
  PER_VALUE,
  rowFilterName,
  linkRowFilterName,
  valueName,
  VALUES,
} from './table-queries.js'
import { createRowDecoder, createValueEncoder, type RowDecoder } from './value-codec.js'

const CREATED_AT: ServerManagedField = 'created_at'
const UPDATED_AT: ServerManagedField = 'updated_at'
const NO_FILTERS: readonly Filter[] = []
const NO_SORT: readonly SortKey[] = []

/** What the storage derives once from each table definition. */
export interface TableContext {
  readonly columns: ReadonlyMap<string, ColumnDefinition>
  /** Columns clients write: everything but the server-managed ones. */
  readonly writable: readonly ColumnDefinition[]
  /** Columns an insert sets: the writable ones and the timestamps. */
  readonly inserted: readonly ColumnDefinition[]
  readonly updatedAt: ColumnDefinition | undefined
  readonly decode: RowDecoder
  readonly restrictChecks: readonly RestrictCheck[]
  /** String columns an index covers, whose written values are limited in length. */
  readonly indexedText: readonly IndexedTextLimit[]
}

/** What a storage derives once from its dialect and tables, shared with the storages of its transactions. */
export interface StorageState {
  readonly dialect: StorageDialect
  readonly tables: readonly TableDefinition[]
  readonly contexts: ReadonlyMap<string, TableContext>
  readonly constraints: ReadonlyMap<string, ConstrainedColumn>
  readonly queries: QueryCache
  readonly encoding: ParameterEncoding
}

/**
 * The Storage for every dialect: the CRUD logic written once over Kysely-built
 * queries, each compiled once per shape (QueryCache) and executed through the
 * dialect's driver. The dialect supplies types, errors and execution.
 */
export class KyselyStorage implements Storage {
  readonly #dialect: StorageDialect
  readonly #tables: readonly TableDefinition[]
  readonly #contexts: ReadonlyMap<string, TableContext>
  readonly #constraints: ReadonlyMap<string, ConstrainedColumn>
  readonly #queries: QueryCache
  readonly #encoding: ParameterEncoding
  readonly #state: StorageState
  /** The dialect's driver; inside transaction(), one running every statement in that transaction. */
  readonly #driver: SqlDriver
  /** Set on the storage transaction() hands its work: statements join that transaction. */
  readonly #inTransaction: boolean
  #closed = false

  /** `joined` is transaction()'s: the state of the storage it belongs to, and the transaction's executor. */
  constructor(
    dialect: StorageDialect,
    tables: readonly TableDefinition[],
    joined?: { readonly state: StorageState; readonly executor: SqlExecutor },
  ) {
    this.#state = joined?.state ?? describeStorage(dialect, tables)
    this.#dialect = this.#state.dialect
    this.#tables = this.#state.tables
    this.#contexts = this.#state.contexts
    this.#constraints = this.#state.constraints
    this.#queries = this.#state.queries
    this.#encoding = this.#state.encoding
    this.#inTransaction = joined !== undefined
    this.#driver = joined ? joinTransaction(joined.executor) : dialect.driver
  }

  /**
   * Runs `work` in one transaction: every call on the storage it is given
   * runs inside it; commits when `work` resolves, rolls back when it
   * rejects. Inside a transaction already, `work` joins it.
   */
  async transaction<T>(work: (storage: Storage) => Promise<T>): Promise<T> {
    if (this.#inTransaction) return work(this)
    return this.#driver.transaction((executor) =>
      work(new KyselyStorage(this.#dialect, this.#tables, { state: this.#state, executor })),
    )
  }

  async prepare(options: PrepareOptions = {}): Promise<void> {
    if (this.#inTransaction) throw new Error('prepare() runs on the storage, not inside one of its transactions')
    const createMissing = options.createMissing ?? true
    const dialect = this.#dialect
    const statements = buildCreateStatements(
      dialect.db,
      sortTablesByDependency(this.#tables),
      dialect.columnTypes,
      dialect.syntax,
    )
    await dialect.checkSupport(dialect.driver)
    // One transaction, serialised with every other prepare() of the namespace:
    // instances starting together would otherwise all find no tables and all
    // create them. A mismatch rolls back the namespace created on the way.
    await dialect.driver.transaction(async (transaction) => {
      await dialect.lockNamespace(transaction)
      if (createMissing) await dialect.createNamespace(transaction)
      const existing = new Map((await dialect.readExistingTables(transaction)).map((table) => [table.name, table]))
      const differences = this.#tables.flatMap((table) => {
        const found = existing.get(table.name)
        if (found !== undefined) return findSchemaDifferences(table, found, dialect.columnTypes)
        return createMissing ? [] : [`table "${table.name}" is missing (the manifest declares it)`]
      })
      if (differences.length > 0) throw new SchemaMismatchError(differences, { managedByMigrations: !createMissing })
      if (!createMissing) return
      for (const statement of statements) {
        const { sql, parameters } = statement.compile()
        await transaction.execute(sql, [...parameters])
      }
    })
  }

  /**
   * The page query, then the count as `options.count` says, each compiled
   * once per shape: row filter columns, filter columns and operators (and
   * IS NULL vs IS NOT NULL), sort keys and directions, offset vs keyset (and
   * which keyset values are NULL). An `in` list is one parameter whatever its
   * length. One statement after the other, so a list never holds more than
   * one connection: a pool of one serves it as it serves a single-row read.
   */
  async list(table: TableDefinition, options: ListOptions): Promise<ListResult> {
    const context = this.#context(table)
    const { rowFilter, after } = options
    const filters = options.filters ?? NO_FILTERS
    const sort = options.sort ?? NO_SORT
    if (after !== undefined) {
      if (options.offset) throw new Error('list takes either offset or after, not both')
      if (after.length !== sort.length + 1) {
        throw new Error(`after takes ${sort.length + 1} values (one per sort key, then id), got ${after.length}`)
      }
    }
    const rowFilterNames = Object.keys(rowFilter)
    if (rowFilterNames.length > 1) rowFilterNames.sort()

    const db = this.#dialect.db
    const syntax = this.#dialect.syntax
    let shape: ListShape | undefined
    const resolve = () =>
      (shape ??= { ...this.#resolveListShape(table, context, rowFilterNames, filters, sort, after), deleted })
    const deleted = table.softDelete === true ? (options.deleted ?? 'exclude') : 'exclude'
    const base = `${table.name}|${deleted}|${rowFilterNames.join(',')}|${filtersKey(filters)}`
    const pagination = after === undefined ? 'offset' : afterKey(after)
    const rowsQuery = this.#queries.get(`list|${base}|${sortKey(sort)}|${pagination}`, () =>
      buildListQuery(db, syntax, table, resolve()),
    )

    const args: Record<string, ColumnValue | readonly ColumnValue[]> = {}
    for (const name of rowFilterNames) args[rowFilterName(name)] = rowFilter[name]!
    bindFilters(filters, args)
    args[LIMIT] = options.limit
    const offset = options.offset ?? 0
    if (after === undefined) args[OFFSET] = offset
    else
      for (let index = 0; index < after.length; index++)
        if (after[index] !== null) args[afterName(index)] = after[index]!

    const driver = this.#driver
    const rows = (await this.#run(driver, table, rowsQuery, args)) as Row[]
    for (const row of rows) context.decode(row)
    const count = options.count ?? 'exact'
    if (count === 'none') return { rows, total: null, count }
    // An offset page short of its limit ends the collection: what it holds and skipped is the total.
    if (after === undefined && rows.length < options.limit && (rows.length > 0 || offset === 0)) {
      return { rows, total: offset + rows.length, count: 'exact' }
    }
    const estimateRows = this.#dialect.estimateRows
    if (count === 'estimated' && estimateRows !== undefined) {
      const matching = this.#queries.get(`matching|${base}`, () => buildMatchingQuery(db, syntax, table, resolve()))
      const parameters = bindParameters(matching.parameters, args, this.#encoding, table.name)
      const estimate = await estimateRows(driver, matching.sql, parameters)
      // Never fewer than the rows seen: the planner may guess low, the page cannot.
      const seen = (after === undefined ? offset : 0) + rows.length
      return { rows, total: Math.max(estimate, seen), count }
    }
    const countQuery = this.#queries.get(`count|${base}`, () => buildCountQuery(db, syntax, table, resolve()))
    const [counted] = await this.#run(driver, table, countQuery, args)
    return { rows, total: Number(counted?.total ?? 0), count: 'exact' }
  }

  /**
   * One statement per shape (row filter columns, filters, grouping columns,
   * aggregates, and which keyset values are NULL), bound like list's: the
   * same conditions, so whatever narrows a list narrows its groups.
   */
  async aggregate(table: TableDefinition, options: AggregateOptions): Promise<AggregateGroup[]> {
    const context = this.#context(table)
    const { rowFilter, groupBy, aggregates, after } = options
    const filters = options.filters ?? NO_FILTERS
    if (after !== undefined && after.length !== groupBy.length) {
      throw new Error(`after takes ${groupBy.length} values (one per grouping column), got ${after.length}`)
    }
    const rowFilterNames = Object.keys(rowFilter).sort()
    const dialect = this.#dialect
    const pagination = after === undefined ? 'first' : afterKey(after)
    const key = `aggregate|${table.name}|${rowFilterNames.join(',')}|${filtersKey(filters)}|${aggregateKey(groupBy, aggregates)}|${pagination}`
    const query = this.#queries.get(key, () => {
      const list = this.#resolveListShape(table, context, rowFilterNames, filters, NO_SORT, undefined)
      const terms = resolveAggregateTerms(table, context.columns, groupBy, aggregates)
      const afterNulls = after === undefined ? undefined : after.map((value) => value === null)
      const shape = { rowFilter: list.rowFilter, filters: list.filters, ...terms, afterNulls }
      return buildAggregateQuery(dialect.db, dialect.syntax, dialect.columnTypes, table, shape)
    })
    const args: Record<string, ColumnValue | readonly ColumnValue[]> = {}
    for (const name of rowFilterNames) args[rowFilterName(name)] = rowFilter[name]!
    bindFilters(filters, args)
    args[LIMIT] = options.limit
    if (after !== undefined) after.forEach((value, index) => value !== null && (args[afterName(index)] = value))
    const rows = await this.#run(this.#driver, table, query, args)
    const decoders = dialect.columnTypes.decoders
    const decodeColumn = (name: string, value: unknown): ColumnValue => {
      const column = context.columns.get(name)!
      const decoder = decoders[column.type]
      return value === null || decoder === undefined ? (value as ColumnValue) : decoder(value, column)
    }
    const kinds = aggregates.map(({ column, fn }) => aggregateResultKind(context.columns.get(column)!.type, fn))
    const integerSums = aggregates.map(
      ({ column, fn }) => fn === 'sum' && context.columns.get(column)!.type === 'integer',
    )
    return rows.map((row) => ({
      keys: groupBy.map((name, index) => decodeColumn(name, row[groupAlias(index)])),
      count: Number(row[COUNT]),
      values: aggregates.map(({ column }, index) => {
        const value = row[aggregateAlias(index)]
        if (value === null || value === undefined) return null
        // Exact results arrive as text (cast in SQL; an integer sum as its dialect reads it), floats as numbers;
        // min and max are values of their column.
        if (integerSums[index]) return dialect.syntax.readIntegerSum(value)
        if (kinds[index] === 'exact') return String(value)
        if (kinds[index] === 'float') return Number(value)
        return decodeColumn(column, value)
      }),
    }))
  }

  async findWhereIn(
    table: TableDefinition,
    column: string,
    values: readonly number[],
    perValue?: number,
    rowFilter: RowFilter = {},
  ): Promise<Row[]> {
    const context = this.#context(table)
    if (values.length === 0) return []
    const capped = perValue !== undefined
    const filterColumns = this.#rowFilterColumns(table.name, context, rowFilter)
    const shape = `${table.name}|${column}|${capped ? 'capped' : 'all'}|${shapeOf(filterColumns)}`
    const query = this.#queries.get(`where-in|${shape}`, () => {
      const definition = context.columns.get(column)
      if (definition === undefined) throw new Error(`findWhereIn names unknown column "${table.name}.${column}"`)
      return buildWhereInQuery(this.#dialect.db, this.#dialect.syntax, table, definition, capped, filterColumns)
    })
    const args = {
      ...rowFilterArguments(rowFilter),
      [VALUES]: values,
      ...(capped ? { [PER_VALUE]: perValue } : {}),
    }
    const rows = await this.#run(this.#driver, table, query, args)
    for (const row of rows) context.decode(row)
    return rows as Row[]
  }

  async findLinked(
    table: TableDefinition,
    link: LinkTable,
    values: readonly number[],
    perValue?: number,
    rowFilter: RowFilter = {},
  ): Promise<LinkedRow[]> {
    const context = this.#context(table)
    if (values.length === 0) return []
    const capped = perValue !== undefined
    const filterColumns = this.#rowFilterColumns(table.name, context, rowFilter)
    const linkRowFilter = link.rowFilter ?? {}
    const linkFilterColumns = this.#linkRowFilterColumns(link.table, linkRowFilter)
    const shape = `${table.name}|${link.table}${link.live ? '(live)' : ''}.${link.column}>${link.targetColumn}|${capped ? 'capped' : 'all'}|${shapeOf(filterColumns)}|${shapeOf(linkFilterColumns)}`
    const query = this.#queries.get(`linked|${shape}`, () =>
      buildLinkedQuery(
        this.#dialect.db,
        this.#dialect.syntax,
        table,
        link,
        capped,
        filterColumns,
        linkFilterColumns,
        this.#pairUnique(link),
      ),
    )
    const args: Record<string, ColumnValue | readonly ColumnValue[]> = {
      ...rowFilterArguments(rowFilter),
      ...rowFilterArguments(linkRowFilter, linkRowFilterName),
      [VALUES]: values,
      ...(capped ? { [PER_VALUE]: perValue } : {}),
    }
    const rows = await this.#run(this.#driver, table, query, args)
    return rows.map((row) => {
      const owner = Number(row[LINK_OWNER])
      delete row[LINK_OWNER]
      return { owner, row: context.decode(row) }
    })
  }

  async find(
    table: TableDefinition,
    id: number,
    rowFilter: RowFilter = {},
    deleted: DeletedVisibility = 'exclude',
  ): Promise<Row | undefined> {
    const context = this.#context(table)
    const filterColumns = this.#rowFilterColumns(table.name, context, rowFilter)
    const query = this.#queries.get(`find|${table.name}|${deleted}|${shapeOf(filterColumns)}`, () =>
      buildFindQuery(this.#dialect.db, table, filterColumns, deleted),
    )
    const [row] = await this.#run(this.#driver, table, query, { ...rowFilterArguments(rowFilter), [ID]: id })
    return row === undefined ? undefined : context.decode(row)
  }

  findForUpdate(table: TableDefinition, id: number): Promise<Row | undefined> {
    // Outside a transaction a lock would last no longer than the read, yet wait for every writer's.
    if (!this.#inTransaction) return this.find(table, id)
    return this.#lockRow(this.#driver, table, this.#context(table), [], { [ID]: id }, 'no key update')
  }

  async insert(table: TableDefinition, values: Row): Promise<Row> {
    const context = this.#context(table)
    this.#assertWritable(table, context, values)
    this.#checkIndexedText(table, context, values)
    const now = new Date().toISOString()
    const args: Record<string, ColumnValue> = {}
    for (const column of context.inserted) {
      const value = column.readOnly ? now : values[column.name]
      args[valueName(column.name)] = value === undefined ? column.default : value
    }
    const query = this.#queries.get(`insert|${table.name}`, () =>
      buildInsertQuery(this.#dialect.db, table, context.inserted),
    )
    try {
      const [row] = await this.#run(this.#driver, table, query, args)
      if (row === undefined) throw new Error(`insert into "${table.name}" returned no row`)
      return context.decode(row)
    } catch (error) {
      throw await this.#translateWriteError(error, table, values)
    }
  }

  async update(
    table: TableDefinition,
    id: number,
    values: Row,
    rowFilter: RowFilter = {},
    precondition?: RowPrecondition,
  ): Promise<Row | undefined> {
    const context = this.#context(table)
    this.#assertWritable(table, context, values)
    this.#checkIndexedText(table, context, values)
    const filterColumns = this.#rowFilterColumns(table.name, context, rowFilter)
    const args: Record<string, ColumnValue> = { ...rowFilterArguments(rowFilter), [ID]: id }
    const columns = context.writable.filter((column) => values[column.name] !== undefined)
    for (const column of columns) args[valueName(column.name)] = values[column.name] ?? null
    if (context.updatedAt !== undefined) {
      columns.push(context.updatedAt)
      args[valueName(context.updatedAt.name)] = new Date().toISOString()
    }
    const shape = `${table.name}|${shapeOf(columns)}|${shapeOf(filterColumns)}`
    const query = this.#queries.get(`update|${shape}`, () =>
      buildUpdateQuery(this.#dialect.db, table, columns, filterColumns),
    )
    const driver = this.#driver
    try {
      const [row] =
        precondition === undefined
          ? await this.#run(driver, table, query, args)
          : await driver.transaction(async (transaction) => {
              const current = await this.#lockRow(transaction, table, context, filterColumns, args, 'update')
              if (current === undefined) return []
              this.#require(table, current, precondition)
              return this.#run(transaction, table, query, args)
            })
      return row === undefined ? undefined : context.decode(row)
    } catch (error) {
      throw await this.#translateWriteError(error, table, values)
    }
  }

  async delete(
    table: TableDefinition,
    id: number,
    rowFilter: RowFilter = {},
    precondition?: RowPrecondition,
  ): Promise<boolean> {
    const context = this.#context(table)
    const filterColumns = this.#rowFilterColumns(table.name, context, rowFilter)
    const db = this.#dialect.db
    const soft = table.softDelete === true
    const existsQuery = this.#queries.get(`exists|${table.name}|${shapeOf(filterColumns)}`, () =>
      buildExistsQuery(db, table.name, filterColumns, matchDeleted(table, 'exclude')),
    )
    const deleteQuery = this.#queries.get(`delete|${table.name}|${shapeOf(filterColumns)}`, () =>
      soft ? buildSoftDeleteQuery(db, table, filterColumns, false) : buildDeleteQuery(db, table, filterColumns),
    )
    const args: QueryArguments = {
      ...rowFilterArguments(rowFilter),
      [ID]: id,
      ...(soft ? { [valueName(SOFT_DELETE_FIELD)]: new Date().toISOString() } : {}),
    }
    try {
      return await this.#driver.transaction(async (transaction) => {
        // Looked up first so that a row outside the row filter is "not found", not "still referenced".
        if (precondition === undefined) {
          const found = await this.#run(transaction, table, existsQuery, args)
          if (found.length === 0) return false
        } else {
          const current = await this.#lockRow(transaction, table, context, filterColumns, args, 'update')
          if (current === undefined) return false
          this.#require(table, current, precondition)
        }
        // A soft delete removes nothing, so only what points at the row itself may hold it.
        await this.#checkRestrictions(transaction, table, context, id, soft)
        // The database cascades; the checks above already covered every restrict on the way.
        // Under READ COMMITTED a concurrent delete may commit after the lookup: only the
        // statement that actually removed the row reports it.
        const deleted = await this.#run(transaction, table, deleteQuery, args)
        return deleted.length > 0
      })
    } catch (error) {
      if (this.#dialect.classifyError(error)?.kind !== 'foreign-key') throw error
      // The database refused although the checks passed: a referencing row was
      // inserted meanwhile. Checking again reports it; if not, the error stands.
      await this.#checkRestrictions(this.#driver, table, context, id)
      throw error
    }
  }

  async restore(table: TableDefinition, id: number, rowFilter: RowFilter = {}): Promise<Row | undefined> {
    const context = this.#context(table)
    if (table.softDelete !== true) throw new Error(`table "${table.name}" does not soft-delete: nothing to restore`)
    const filterColumns = this.#rowFilterColumns(table.name, context, rowFilter)
    const query = this.#queries.get(`restore|${table.name}|${shapeOf(filterColumns)}`, () =>
      buildSoftDeleteQuery(this.#dialect.db, table, filterColumns, true),
    )
    try {
      const [row] = await this.#run(this.#driver, table, query, { ...rowFilterArguments(rowFilter), [ID]: id })
      return row === undefined ? undefined : context.decode(row)
    } catch (error) {
      // The row's own values: a live row that took one of them meanwhile is the unique value it names.
      throw await this.#translateWriteError(error, table, {})
    }
  }

  async purge(table: TableDefinition, deletedBefore: string, batchSize: number): Promise<PurgeResult> {
    const context = this.#context(table)
    if (table.softDelete !== true) throw new Error(`table "${table.name}" does not soft-delete: nothing to purge`)
    const db = this.#dialect.db
    const batchQuery = this.#queries.get(`purge-batch|${table.name}`, () => buildPurgeBatchQuery(db, table))
    const deleteQuery = this.#queries.get(`purge-delete|${table.name}`, () => buildPurgeDeleteQuery(db, table))
    let purged = 0
    let kept = 0
    let after = 0
    let refused = 0
    for (;;) {
      // One transaction per batch: a long purge never holds locks on the whole table, and what it did stays done.
      let batch: { readonly ids: readonly number[]; readonly purged: number; readonly kept: number }
      try {
        batch = await this.#driver.transaction(async (transaction) => {
          const ids = (
            await this.#run(transaction, table, batchQuery, {
              [valueName(SOFT_DELETE_FIELD)]: deletedBefore,
              [PURGE_AFTER]: after,
              [LIMIT]: batchSize,
            })
          ).map((row) => Number(row.id))
          let batchPurged = 0
          let batchKept = 0
          for (const id of ids) {
            try {
              await this.#checkRestrictions(transaction, table, context, id)
            } catch (error) {
              if (!(error instanceof RowReferencedError)) throw error
              batchKept++
              continue
            }
            const args = { [ID]: id, [valueName(SOFT_DELETE_FIELD)]: deletedBefore }
            batchPurged += (await this.#run(transaction, table, deleteQuery, args)).length
          }
          return { ids, purged: batchPurged, kept: batchKept }
        })
      } catch (error) {
        // A restrict row pointing at one of the batch's rows committed after its check passed (under READ
        // COMMITTED the check cannot see a row inserted, not yet committed): the database refused the delete and
        // the batch rolled back whole. Done again, the check sees the row and keeps what it holds; a refusal that
        // persists is no such race (a reference the manifest does not declare) and stands.
        if (this.#dialect.classifyError(error)?.kind !== 'foreign-key' || ++refused > 3) throw error
        continue
      }
      refused = 0
      purged += batch.purged
      kept += batch.kept
      if (batch.ids.length < batchSize) return { purged, kept }
      after = batch.ids.at(-1)!
    }
  }

  /** The row as it stands, locked until `transaction` ends (buildLockQuery); undefined when none matches. */
  async #lockRow(
    transaction: SqlExecutor,
    table: TableDefinition,
    context: TableContext,
    filterColumns: readonly ColumnDefinition[],
    args: QueryArguments,
    lock: RowLock,
  ): Promise<Row | undefined> {
    const dialect = this.#dialect
    const query = this.#queries.get(`lock|${lock}|${table.name}|${shapeOf(filterColumns)}`, () =>
      buildLockQuery(dialect.db, table, filterColumns, dialect.name === 'postgres' ? lock : null),
    )
    const [row] = await this.#run(transaction, table, query, args)
    return row === undefined ? undefined : context.decode(row)
  }

  #require(table: TableDefinition, current: Row, precondition: RowPrecondition): void {
    if (!precondition(current)) throw new PreconditionFailedError(table.name, current)
  }

  async ping(): Promise<void> {
    await this.#driver.execute('select 1', [])
  }

  async close(): Promise<void> {
    if (this.#closed || this.#inTransaction) return
    this.#closed = true
    await this.#dialect.close()
  }

  #context(table: TableDefinition): TableContext {
    const context = this.#contexts.get(table.name)
    if (context === undefined) throw new Error(`table "${table.name}" was not given to createStorage`)
    return context
  }

  /** Whether the join's composite unique holds each (owner, target) pair once (a join this storage was not given: no). */
  #pairUnique(link: LinkTable): boolean {
    const join = this.#tables.find((table) => table.name === link.table)
    return (join?.uniques ?? []).some(
      (columns) => columns.length === 2 && columns.includes(link.column) && columns.includes(link.targetColumn),
    )
  }

  /** A join table's row filter's columns (LinkTable.rowFilter), as #rowFilterColumns. */
  #linkRowFilterColumns(table: string, rowFilter: RowFilter): ColumnDefinition[] {
    if (Object.keys(rowFilter).length === 0) return []
    const context = this.#state.contexts.get(table)
    if (context === undefined) throw new Error(`table "${table}" was not given to createStorage`)
    return this.#rowFilterColumns(table, context, rowFilter)
  }

  /** The row filter's columns in name order, so equal row filters share one query shape. */
  #rowFilterColumns(table: string, context: TableContext, rowFilter: RowFilter): ColumnDefinition[] {
    return Object.keys(rowFilter)
      .sort()
      .map((name) => {
        const column = context.columns.get(name)
        if (column === undefined) throw new Error(`row filter names unknown column "${table}.${name}"`)
        return column
      })
  }

  #assertWritable(table: TableDefinition, context: TableContext, values: Row): void {
    for (const name of Object.keys(values)) {
      const column = context.columns.get(name)
      if (column === undefined) throw new Error(`unknown column "${table.name}.${name}"`)
      if (column.readOnly) throw new Error(`column "${table.name}.${name}" is managed by the storage`)
    }
  }

  /** What a list call's shape key names, resolved against the table (once per shape). */
  #resolveListShape(
    table: TableDefinition,
    context: TableContext,
    rowFilterNames: readonly string[],
    filters: readonly Filter[],
    sort: readonly SortKey[],
    after: ListOptions['after'],
  ): Omit<ListShape, 'deleted'> {
    const columns = context.columns
    const keys = resolveSortKeys(table, columns, sort)
    return {
      rowFilter: rowFilterNames.map((name) => {
        const column = columns.get(name)
        if (column === undefined) throw new Error(`row filter names unknown column "${table.name}.${name}"`)
        return column
      }),
      filters: resolveFilters(table, columns, filters, (name) => {
        const other = this.#tables.find((candidate) => candidate.name === name)
        if (other === undefined) throw new Error(`filter passes unknown table "${name}"`)
        return this.#context(other).columns
      }),
      keys,
      afterNulls: after === undefined ? undefined : keys.map((_, index) => after[index] === null),
    }
  }

  /**
   * Binds `args` and runs `query`. A value refused while binding, or by the
   * database (see #translateValueError), throws InvalidValueError on `table`.
   */
  async #run(
    executor: SqlExecutor,
    table: TableDefinition,
    query: CachedQuery,
    args: QueryArguments,
  ): Promise<SqlRow[]> {
    const parameters = bindParameters(query.parameters, args, this.#encoding, table.name)
    try {
      return await executor.execute(query.sql, parameters)
    } catch (error) {
      throw this.#translateValueError(error, table, query)
    }
  }

  /**
   * Turns a value the database refused into InvalidValueError naming the
   * column: the one the driver names, else the one the named constraint or
   * index covers, else the first column the statement binds a value for
   * (for insert and update, the first column written). Other errors pass.
   */
  #translateValueError(error: unknown, table: TableDefinition, query: CachedQuery): unknown {
    const failure = this.#dialect.classifyError(error)
    if (failure?.kind !== 'invalid-value') return error
    const constrained = failure.constraint === undefined ? undefined : this.#constraints.get(failure.constraint)
    if (constrained !== undefined)
      return new InvalidValueError(constrained.table.name, constrained.column.name, failure.reason)
    const named =
      failure.column !== undefined && this.#context(table).columns.has(failure.column) ? failure.column : undefined
    const column = named ?? query.parameters.find((parameter) => parameter.column !== undefined)?.column
    return column === undefined ? error : new InvalidValueError(table.name, column, failure.reason)
  }

  /** Throws InvalidValueError for a written string longer than an index on its column takes (indexed-text-limits.ts). */
  #checkIndexedText(table: TableDefinition, context: TableContext, values: Row): void {
    for (const { column, maxBytes } of context.indexedText) {
      const value = values[column.name]
      // A UTF-16 code unit takes at most 3 bytes of UTF-8.
      if (typeof value !== 'string' || value.length * 3 <= maxBytes) continue
      if (Buffer.byteLength(value, 'utf8') > maxBytes) {
        throw new InvalidValueError(table.name, column.name, describeIndexedTextLimit(maxBytes))
      }
    }
  }

  /**
   * Throws RowReferencedError for the first restrict reference that still
   * points into the delete; with `direct`, only at the row itself.
   */
  async #checkRestrictions(
    executor: SqlExecutor,
    table: TableDefinition,
    context: TableContext,
    id: number,
    direct = false,
  ) {
    for (const [index, check] of context.restrictChecks.entries()) {
      if (direct && check.cascadePath.length > 0) continue
      const query = this.#queries.get(`restrict|${table.name}|${index}`, () =>
        buildRestrictCountQuery(this.#dialect.db, check),
      )
      const [counted] = await this.#run(executor, table, query, { [ID]: id })
      const count = Number(counted?.total ?? 0)
      if (count > 0)
        throw new RowReferencedError(check.referencedTable, check.restrict.table, check.restrict.resource, count)
    }
  }

  /**
   * Turns a driver's constraint failure into the storage error naming the
   * column (from the constraint's name, else what the driver says, else by
   * looking); other errors pass.
   */
  async #translateWriteError(error: unknown, table: TableDefinition, values: Row): Promise<unknown> {
    const failure = this.#dialect.classifyError(error)
    if (failure === undefined) return error
    if (failure.kind === 'other') return new ConstraintViolationError(table.name, failure.description)
    const constrained = failure.constraint === undefined ? undefined : this.#constraints.get(failure.constraint)
    // A unique or foreign key no column of the manifest's is traced to was made by hand: named as the database names it.
    const untraced = () =>
      new ConstraintViolationError(
        table.name,
        failure.constraint === undefined
          ? `a ${failure.kind === 'unique' ? 'UNIQUE' : 'FOREIGN KEY'} constraint`
          : `constraint "${failure.constraint}"`,
      )
    if (failure.kind === 'unique') {
      const columns = constrained?.columns ?? failure.columns
      if (columns !== undefined) return new UniqueViolationError(table.name, columns[0]!, columns)
      const column = constrained?.column.name ?? failure.column
      return column === undefined ? untraced() : new UniqueViolationError(table.name, column)
    }
    if (failure.kind !== 'foreign-key') return error
    const named = failure.column === undefined ? undefined : this.#context(table).columns.get(failure.column)
    const column = constrained?.column ?? named ?? (await this.#findMissingReference(table, values))
    return column?.references === undefined
      ? untraced()
      : new MissingReferenceError(table.name, column.name, column.references.table)
  }

  /** The first foreign key in `values` whose row is missing, for drivers whose error does not say. */
  async #findMissingReference(table: TableDefinition, values: Row): Promise<ColumnDefinition | undefined> {
    for (const column of table.columns) {
      const value = values[column.name]
      const referenced = column.references?.table
      if (referenced === undefined || value === undefined || value === null) continue
      const query = this.#queries.get(`exists|${referenced}|`, () => buildExistsQuery(this.#dialect.db, referenced))
      const found = await this.#run(this.#driver, table, query, { [ID]: value })
      if (found.length === 0) return column
    }
    return undefined
  }
}

/**
 * Binds each filter's value as `filter:<index>` (a `null` filter has none: IS NULL is in the SQL), and the
 * row filter of each table it passes as `hop:<index>.<hop>:<column>` (hopRowFilterName).
 */
function bindFilters(filters: readonly Filter[], args: Record<string, ColumnValue | readonly ColumnValue[]>): void {
  for (let index = 0; index < filters.length; index++) {
    const { operator, value, through } = filters[index]!
    if (through !== undefined) {
      for (let hop = 0; hop < through.length; hop++) {
        const rowFilter = through[hop]!.rowFilter
        if (!rowFilter) continue
        for (const name in rowFilter) args[hopRowFilterName(index, hop, name)] = rowFilter[name]!
      }
    }
    if (operator === 'null') continue
    args[filterName(index)] = isTextMatchOperator(operator) ? likePattern(value, operator) : value
  }
}

/** Part of a cache key: the column names, in the given order. */
function shapeOf(columns: readonly ColumnDefinition[]): string {
  return columns.map((column) => column.name).join(',')
}

function rowFilterArguments(rowFilter: RowFilter, nameOf = rowFilterName): Record<string, ColumnValue> {
  const args: Record<string, ColumnValue> = {}
  for (const [name, value] of Object.entries(rowFilter)) args[nameOf(name)] = value
  return args
}

/** What every storage of `tables` on `dialect` derives once. */
function describeStorage(dialect: StorageDialect, tables: readonly TableDefinition[]): StorageState {
  const tablesByName = new Map(tables.map((table) => [table.name, table]))
  return {
    dialect,
    tables,
    contexts: new Map(tables.map((table) => [table.name, createContext(table, tablesByName, dialect.columnTypes)])),
    constraints: mapConstraintNames(tables),
    queries: new QueryCache(),
    encoding: { encode: createValueEncoder(dialect.columnTypes), bindList: dialect.syntax.bindList },
  }
}

function createContext(
  table: TableDefinition,
  tablesByName: ReadonlyMap<string, TableDefinition>,
  columnTypes: StorageDialect['columnTypes'],
): TableContext {
  const writable = table.columns.filter((column) => !column.readOnly)
  const timestamps = table.columns.filter((column) => column.name === CREATED_AT || column.name === UPDATED_AT)
  return {
    columns: new Map(table.columns.map((column) => [column.name, column])),
    writable,
    inserted: [...writable, ...timestamps],
    updatedAt: timestamps.find((column) => column.name === UPDATED_AT),
    decode: createRowDecoder(table, columnTypes),
    restrictChecks: collectRestrictChecks(table, tablesByName),
    indexedText: listIndexedTextLimits(table),
  }
}

/** A driver whose statements, and transactions, all run in one transaction already open. */
function joinTransaction(executor: SqlExecutor): SqlDriver {
  return {
    execute: (sql, parameters) => executor.execute(sql, parameters),
    transaction: (work) => work(executor),
    scriptTransaction: () => {
      throw new Error('scripts run in a transaction of their own, not inside a storage transaction')
    },
  }
}
