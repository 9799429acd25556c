import type { Expression, Kysely, RawBuilder, SqlBool } from 'kysely'
import type { ColumnTypeMapping } from './column-type-mapping.js'
import type { ColumnDefinition } from '../contract/table-definition.js'
import type { QueryParameter } from './query-parameter.js'

/** A row as the driver returns it, before decoding. */
export type SqlRow = Record<string, unknown>

/**
 * Runs compiled SQL with positional, already-encoded parameter values and
 * returns its rows (SELECT, RETURNING; none for other statements).
 */
export interface SqlExecutor {
  execute(sql: string, parameters: unknown[]): Promise<SqlRow[]>
}

/**
 * The hot path of a dialect: executes compiled SQL, keeping whatever
 * per-statement driver state (prepared statements) pays off for repeated SQL.
 */
export interface SqlDriver extends SqlExecutor {
  /**
   * Runs `work` in one transaction on one connection: commits when it
   * resolves, rolls back and rethrows when it rejects. Statements issued
   * through the driver meanwhile never run inside this transaction.
   */
  transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T>
  /**
   * Runs `work` in one transaction as `transaction` does, for schema changes
   * written as SQL files: its executor also runs scripts, and foreign keys
   * are checked once for the whole transaction, before COMMIT. SQLite turns
   * `foreign_keys` off around it (it cannot change inside a transaction, and
   * its table-rebuild procedure drops tables others reference), then runs
   * `PRAGMA foreign_key_check`: a dangling reference rolls back, naming the row.
   */
  scriptTransaction<T>(work: (executor: ScriptExecutor) => Promise<T>): Promise<T>
}

/** A transaction's executor that also runs SQL text holding several statements, without parameters. */
export interface ScriptExecutor extends SqlExecutor {
  executeScript(sql: string): Promise<void>
}

/**
 * The SQL that differs between dialects in list queries and indexes. Each
 * returns a Kysely expression; values only ever enter as the placeholders given.
 */
export interface DialectSyntax {
  /**
   * The column as sorting and range comparisons see it. Strings compare by
   * code point on every dialect (PostgreSQL: `COLLATE "C"`, SQLite's default
   * BINARY), so both order alike whatever the database's locale. ORDER BY,
   * keyset conditions, comparison filters and indexes all use this form, so
   * they agree with each other and the indexes serve them.
   */
  compared(column: ColumnDefinition): Expression<unknown>
  /**
   * The column as equality filters (`eq`, `ne`, `in`) see it: the same truth
   * as `compared` (equality ignores a deterministic collation), in the form
   * the column's index is built for. PostgreSQL: a unique string column is
   * indexed by its constraint under the database collation, so it is compared
   * plainly; other strings as `compared`, like their declared indexes.
   */
  equated(column: ColumnDefinition): Expression<unknown>
  /** `equated(column)` equals one of the values of a list placeholder (bound whole, as one parameter). */
  inList(column: ColumnDefinition, list: QueryParameter): Expression<SqlBool>
  /**
   * LIKE of the raw column against a pattern whose escape character is `\`,
   * both folded as foldCase (fold-case.ts) does, so every dialect matches the
   * same rows whatever the database's locale.
   */
  likeInsensitive(column: ColumnDefinition, pattern: QueryParameter): Expression<SqlBool>
  /** One column of a CREATE INDEX, ordered as `compared` and with NULLs first (as list queries sort them). */
  indexColumn(column: ColumnDefinition): Expression<unknown>
  /** Turns the encoded values of a list placeholder into the one value the driver binds. */
  bindList(values: unknown[]): unknown
  /**
   * `sum` or `avg` of a decimal column, exact, as text with the column's
   * `scale` fraction digits (an average rounded half away from zero), NULL
   * over no values: the same strings on every dialect (decimal-sum.ts).
   */
  decimalAggregate(fn: 'sum' | 'avg', column: ColumnDefinition): RawBuilder<string>
  /**
   * `sum` of an integer column, exact however large (past 2^63 too), NULL
   * over no values; `readIntegerSum` turns what it reads back (not NULL) into
   * the sum's decimal digits.
   */
  integerSum(column: ColumnDefinition): RawBuilder<unknown>
  readIntegerSum(value: unknown): string
  /**
   * How a capped include keeps the first n rows per value of a list. `window`: row_number() numbers each
   * value's rows. `limit-per-value`: each distinct value of the list (`listRows`: a table whose one column
   * is `value`) is joined to the ids a correlated `LIMIT n` subquery picks for it, which SQLite runs as one
   * index seek per value where its window sorts every row (a page of 20 posts' tags: 120 µs against 158).
   * PostgreSQL keeps the window: it would run such a subquery as a filter over the whole table.
   */
  readonly perValueCap:
    | { readonly kind: 'window' }
    | { readonly kind: 'limit-per-value'; listRows(list: QueryParameter): RawBuilder<unknown> }
}

/**
 * A driver error recognised as a constraint failure, or as a value the
 * database refuses (`invalid-value`: PostgreSQL's SQLSTATE class 22 data
 * exceptions, an index row too large, SQLite's SQLITE_TOOBIG). `column` is
 * set when the driver names it; otherwise `constraint` may name the violated
 * constraint or index. `reason` completes a sentence starting with the field name.
 */
export type ConstraintFailure =
  | {
      readonly kind: 'unique'
      readonly column?: string
      readonly constraint?: string
      /** Every column the driver names, when it names several (a composite unique on SQLite). */
      readonly columns?: readonly string[]
    }
  | { readonly kind: 'foreign-key'; readonly column?: string; readonly constraint?: string }
  | { readonly kind: 'invalid-value'; readonly column?: string; readonly constraint?: string; readonly reason: string }
  /** Any other constraint the database enforces (a CHECK, NOT NULL…): `description` names it, as the driver does. */
  | { readonly kind: 'other'; readonly description: string }

/** A base table as it exists in the database, as far as prepare() compares it with its definition. */
export interface ExistingTable {
  readonly name: string
  /** In the table's column order. */
  readonly columns: readonly ExistingColumn[]
  /** UNIQUE constraints and unique indexes, the primary key excluded. */
  readonly uniques: readonly ExistingUnique[]
  readonly foreignKeys: readonly ExistingForeignKey[]
  /** CHECK constraints, which restmint never creates: each one was made by hand. */
  readonly checks: readonly ExistingCheck[]
  /** The names of its other indexes (neither unique nor the primary key's), sorted. */
  readonly indexes: readonly string[]
}

export interface ExistingCheck {
  /** The constraint's name; null for an unnamed one (SQLite). */
  readonly name: string | null
  /** Its condition, as the database shows it. */
  readonly expression: string
}

export interface ExistingColumn {
  readonly name: string
  /** As introspection reports it (compared lower-cased with ColumnTypeMapping.introspectedTypes). */
  readonly dataType: string
  readonly isNullable: boolean
  /** The column's DEFAULT expression as the database shows it (`'draft'::text`, `1`); null when it has none. */
  readonly default: string | null
}

export interface ExistingUnique {
  /** The constraint's or index's name. */
  readonly name: string
  /** Key columns in order; null for an expression. */
  readonly columns: readonly (string | null)[]
  /** Covers only the rows a WHERE clause selects. */
  readonly partial: boolean
}

export interface ExistingForeignKey {
  /** The constraint's name, or (SQLite, where they have none) a description. */
  readonly name: string
  /** Referencing columns in order. */
  readonly columns: readonly string[]
  /** The referenced table; `schema.table` when it lies outside the storage's namespace. */
  readonly referencedTable: string
  /** Referenced columns, paired with `columns`; null for SQLite's implicit primary key. */
  readonly referencedColumns: readonly (string | null)[]
  readonly onDelete: ForeignKeyAction
}

/** ON DELETE actions; NO ACTION behaves as RESTRICT for a single statement, so it is read as `restrict`. */
export type ForeignKeyAction = 'restrict' | 'cascade' | 'set null' | 'set default'

/**
 * Everything dialect-specific that KyselyStorage needs; `sqlite/` and
 * `postgres/` each build one with the same file set.
 */
export interface StorageDialect {
  /** Which database: also names a migration's SQL file for it (migration-files.ts). */
  readonly name: 'sqlite' | 'postgres'
  /** Builds queries and DDL with table names resolved in the storage's namespace. */
  readonly db: Kysely<any>
  readonly driver: SqlDriver
  readonly columnTypes: ColumnTypeMapping
  readonly syntax: DialectSyntax
  /**
   * Called first in prepare()'s transaction, and in each migration's: makes
   * every other prepare() or migration on the same namespace (another
   * storage, another process) wait until this transaction ends, so each one's
   * introspection sees the tables the previous one created (or the migration
   * it recorded) instead of racing to create them too. PostgreSQL: a
   * transaction-level advisory lock keyed on the schema. SQLite: nothing more,
   * since the driver's transactions begin IMMEDIATE and so already hold the
   * database's write lock.
   */
  lockNamespace(executor: SqlExecutor): Promise<void>
  /**
   * Throws StorageUrlError, saying what is missing, when the database lacks
   * something this dialect's SQL relies on (PostgreSQL: ICU, for foldCase).
   */
  checkSupport(executor: SqlExecutor): Promise<void>
  /** Creates the namespace the tables live in, when the dialect has one and it is missing. */
  createNamespace(executor: SqlExecutor): Promise<void>
  /**
   * Runs a migration file's statements through `executor`, with unqualified
   * table names resolving to the storage's namespace (PostgreSQL: `SET LOCAL
   * search_path` to the schema), so one file serves every schema.
   */
  runScript(executor: ScriptExecutor, sql: string): Promise<void>
  /** Base tables (no views) that exist in the storage's namespace, with their columns, uniques and foreign keys. */
  readExistingTables(executor: SqlExecutor): Promise<readonly ExistingTable[]>
  /**
   * The database's estimate of how many rows `sql` returns, without running
   * it (PostgreSQL: the planner's `Plan Rows` of `EXPLAIN (FORMAT JSON)`);
   * absent when the database keeps no such estimate (SQLite), and the storage
   * counts exactly instead.
   */
  readonly estimateRows?: (executor: SqlExecutor, sql: string, parameters: unknown[]) => Promise<number>
  /** Recognises unique and foreign-key violations and refused values; undefined for any other error. */
  classifyError(error: unknown): ConstraintFailure | undefined
  /** Releases the connection(s); the dialect is unusable afterwards. */
  close(): Promise<void>
}
