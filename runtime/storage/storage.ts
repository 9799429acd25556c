import type { AggregateFunction } from '../contract/aggregate-function.js'
import type { CountStrategy } from '../contract/count-strategy.js'
import type { DeletedVisibility } from '../contract/query-rules.js'
import type { FilterOperator } from '../contract/filter-operator.js'
import type { ColumnValue, Row, TableDefinition } from '../contract/table-definition.js'

/**
 * Equality conditions on columns, e.g. `{ order_id: 3 }` for a nested route,
 * or `{ owner_sub: 'alice' }` for the rows an owner rule lets a caller touch:
 * part of the same statement, so a write is checked atomically.
 */
export type RowFilter = Readonly<Record<string, string | number | boolean>>

/**
 * What an update or delete requires of the current row (an `If-Match`),
 * checked in the write's transaction with the row locked, so no other write
 * comes between the check and the write.
 */
export type RowPrecondition = (current: Row) => boolean

/** One filter condition, already parsed to the column's type. Filters combine with AND. */
export interface Filter {
  readonly column: string
  readonly operator: FilterOperator
  /**
   * `in`: a non-empty array of values; `null`: true for IS NULL, false for IS
   * NOT NULL; `contains`/`starts_with`: a string matched case-insensitively
   * (both sides folded by foldCase, fold-case.ts, on every dialect), with `%`
   * and `_` taken literally; otherwise one value of the column's type.
   */
  readonly value: ColumnValue | readonly ColumnValue[]
  /**
   * A filter across relations: the tables leading from the listed one to the
   * one holding `column`, each tied to the one before. The list keeps a row
   * when at least one row at the end of the path matches, tested with nested
   * EXISTS, so a row never repeats however many match.
   */
  readonly through?: readonly FilterHop[]
}

/** One table a filter across relations passes: its rows whose `column` equals the previous table's `outerColumn`. */
export interface FilterHop {
  readonly table: string
  readonly column: string
  readonly outerColumn: string
  /** The table soft-deletes: only its live rows (`deleted_at IS NULL`) lead on. */
  readonly live?: true
  /**
   * Only its rows meeting these equality conditions lead on (as a list's
   * row filter: the rows of the table the caller may read); null when none
   * does, so the filter matches nothing. Absent: every row.
   */
  readonly rowFilter?: RowFilter | null
}

/** The join of a many-to-many: `table`'s `column` holds the listed side's id, `targetColumn` the other side's. */
export interface LinkTable {
  readonly table: string
  readonly column: string
  readonly targetColumn: string
  /** The join soft-deletes: a soft-deleted join row links nothing. */
  readonly live?: true
  /** Only join rows meeting these equality conditions link (the links the caller may read). Absent: every row. */
  readonly rowFilter?: RowFilter
}

/** A row of findLinked: the target row, and the id it is linked to. */
export interface LinkedRow {
  readonly owner: number
  readonly row: Row
}

export interface SortKey {
  readonly column: string
  readonly direction: 'asc' | 'desc'
}

export interface ListOptions {
  readonly rowFilter: RowFilter
  readonly filters?: readonly Filter[]
  /**
   * Sort keys in order (default: none). The storage always appends `id`, in
   * the direction of the last key (ascending when there is none), so the order
   * is total. NULL sorts before every value ascending, after every value
   * descending, on every dialect.
   */
  readonly sort?: readonly SortKey[]
  readonly limit: number
  /** Offset pagination; not combined with `after`. */
  readonly offset?: number
  /**
   * Keyset pagination: the values of the sort keys of the last row already
   * seen, then its id. Rows strictly after that position are returned.
   */
  readonly after?: readonly ColumnValue[]
  /**
   * How to count the rows matching the row filter and filters (default
   * `exact`; see count-strategy.ts). The page and the count run one after the
   * other, so a list holds at most one connection at a time.
   */
  readonly count?: CountStrategy
  /** Of a soft-deleting table: live rows (`exclude`, the default), every row, or deleted ones only. */
  readonly deleted?: DeletedVisibility
}

export interface ListResult {
  readonly rows: Row[]
  /** Rows matching the row filter and filters, counted as `count` says; null when `count` is `none`. */
  readonly total: number | null
  /** What kind of total this is: `estimated` only where the database gave an estimate (else counted exactly). */
  readonly count: CountStrategy
}

/** One aggregate of an aggregate call: `fn` over `column`. */
export interface AggregateTerm {
  readonly column: string
  readonly fn: AggregateFunction
}

export interface AggregateOptions {
  /** The rows aggregated: those a list with the same row filter and filters would return. */
  readonly rowFilter: RowFilter
  readonly filters?: readonly Filter[]
  /** Grouping columns; groups come sorted by them, ascending, NULL first. None: one group of every matching row. */
  readonly groupBy: readonly string[]
  readonly aggregates: readonly AggregateTerm[]
  /** The most groups returned (with grouping columns). */
  readonly limit: number
  /** Keyset pagination: the grouping values of the last group already seen; groups strictly after it are returned. */
  readonly after?: readonly ColumnValue[]
}

/**
 * One group: its grouping values (in `groupBy` order), its row count, and its
 * aggregates (in `aggregates` order; see aggregate-values.ts for each one's
 * JS type: exact results are strings), null where every value was null.
 */
export interface AggregateGroup {
  readonly keys: ColumnValue[]
  readonly count: number
  readonly values: ColumnValue[]
}

export interface PurgeResult {
  readonly purged: number
  /** Deleted rows still referenced by `restrict` rows, left in place. */
  readonly kept: number
}

/**
 * One database behind the generated API. Both dialects (sqlite/, postgres/)
 * implement it with the same file set. Rows going in and out are decoded JS
 * values: booleans as booleans, `date` as `YYYY-MM-DD`, `datetime` as RFC 3339
 * UTC strings. The storage owns `id`, `created_at` and `updated_at`.
 *
 * Constraint failures surface as the errors in storage-errors.ts, never as
 * driver errors. So do values that either database could not store or
 * compare, or would treat differently from the other (InvalidValueError:
 * NUL or unpaired surrogates in text, integers beyond ±Number.MAX_SAFE_INTEGER, leap seconds,
 * dates and datetimes outside 0001–9999, text too long for an index on its
 * column, values of another type than the column's), whether written,
 * filtered on, filterColumns by, or given as a keyset position or id.
 */
export interface PrepareOptions {
  /**
   * Create missing tables, their indexes and the PostgreSQL schema (default
   * true). False when migrations manage the schema: prepare() then only
   * compares, and a missing table is a difference like any other.
   */
  readonly createMissing?: boolean
}

export interface Storage {
  /**
   * Creates missing tables (and their indexes) unless `createMissing` is
   * false. A table that exists but disagrees with its definition (columns,
   * types, nullability, UNIQUE constraints, foreign keys: target and ON
   * DELETE) makes this throw SchemaMismatchError naming every difference;
   * nothing is ever altered or dropped. Safe when several storages or
   * processes prepare one empty database at once: they run one after
   * another, and every one of them comes up.
   */
  prepare(options?: PrepareOptions): Promise<void>
  list(table: TableDefinition, options: ListOptions): Promise<ListResult>
  /**
   * Groups of the rows `list` would match with the same row filter and
   * filters, in one statement: it reads those rows once, as an exact count
   * of the list does, and returns at most `limit` groups.
   */
  aggregate(table: TableDefinition, options: AggregateOptions): Promise<AggregateGroup[]>
  /**
   * Rows whose `column` holds one of `values`, ordered by id, in ONE statement
   * whatever the number of values: how includes load relations without N+1.
   * With `perValue`, only the first `perValue` rows (by id) of each value;
   * with `rowFilter`, only rows within it (counted so by `perValue` too).
   */
  findWhereIn(
    table: TableDefinition,
    column: string,
    values: readonly number[],
    perValue?: number,
    rowFilter?: RowFilter,
  ): Promise<Row[]>
  /**
   * The rows of `table` linked through `link` to one of `values` (a
   * many-to-many), in ONE statement whatever the number of values, by owner
   * then id: how includes embed many-to-many relations without N+1. A row
   * linked to several values comes once per value. `perValue` and
   * `rowFilter` (on `table`) as findWhereIn's.
   */
  findLinked(
    table: TableDefinition,
    link: LinkTable,
    values: readonly number[],
    perValue?: number,
    rowFilter?: RowFilter,
  ): Promise<LinkedRow[]>
  /** One row by id; of a soft-deleting table, a live one unless `deleted` says otherwise. */
  find(table: TableDefinition, id: number, rowFilter?: RowFilter, deleted?: DeletedVisibility): Promise<Row | undefined>
  /**
   * The live row with this id, locked until the transaction ends (PostgreSQL's
   * `FOR UPDATE`; a SQLite transaction holds the database's write lock
   * already), so a check of it holds until the write it guards; outside a
   * transaction, a plain read.
   */
  findForUpdate(table: TableDefinition, id: number): Promise<Row | undefined>
  /** Inserts, stamping `created_at`/`updated_at`; returns the stored row. */
  insert(table: TableDefinition, values: Row): Promise<Row>
  /**
   * Updates the given columns and `updated_at`; undefined when no row
   * matches. With a precondition the current row is read and locked first:
   * PreconditionFailedError (carrying it) when it fails, nothing written.
   */
  update(
    table: TableDefinition,
    id: number,
    values: Row,
    rowFilter?: RowFilter,
    precondition?: RowPrecondition,
  ): Promise<Row | undefined>
  /**
   * Deletes in one transaction, cascading to `onDelete: cascade` references
   * and clearing `set_null` ones; throws RowReferencedError when a `restrict`
   * reference still points here. A soft-deleting table's row is stamped
   * instead (`deleted_at`), cascading to nothing: only its own `restrict`
   * references are checked (deleted rows among them count: they exist until purged).
   * Returns false when no row matches. A precondition is checked as update's is.
   */
  delete(table: TableDefinition, id: number, rowFilter?: RowFilter, precondition?: RowPrecondition): Promise<boolean>
  /**
   * Brings back a soft-deleted row (clears `deleted_at`) and returns it;
   * undefined when no deleted row matches. UniqueViolationError when a live
   * row took one of its unique values meanwhile.
   */
  restore(table: TableDefinition, id: number, rowFilter?: RowFilter): Promise<Row | undefined>
  /**
   * Deletes for good the rows of a soft-deleting table deleted before
   * `deletedBefore` (RFC 3339), `batchSize` rows per transaction, children
   * following their `on_delete`; a row a `restrict` reference still points
   * at stays (counted in `kept`).
   */
  purge(table: TableDefinition, deletedBefore: string, batchSize: number): Promise<PurgeResult>
  /**
   * Runs `work` in one transaction: every call on the storage it is given
   * runs inside it (outside calls do not: on SQLite they wait for it to
   * end); commits when `work` resolves, rolls back and rethrows when it
   * rejects. Inside a transaction already, `work` joins it.
   */
  transaction<T>(work: (storage: Storage) => Promise<T>): Promise<T>
  /** Runs a trivial query (`select 1`): resolves when the database answers it, for readiness checks. */
  ping(): Promise<void>
  close(): Promise<void>
}
