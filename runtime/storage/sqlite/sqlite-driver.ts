import type { Database, Statement } from 'better-sqlite3'
import type { ScriptExecutor, SqlDriver, SqlExecutor, SqlRow } from '../storage-dialect.js'
import { TransactionEndedError } from '../storage-errors.js'

/** A row of PRAGMA foreign_key_check. */
type ForeignKeyViolation = SqlRow & { readonly table: string; readonly rowid: number | null; readonly parent: string }

const MAX_VIOLATIONS_SHOWN = 5

/**
 * Executes SQL on one better-sqlite3 connection through prepared statements
 * cached by SQL text (the storage's SQL comes from a bounded set of shapes).
 *
 * The connection is shared, so while a transaction awaits between its
 * statements, other callers wait: otherwise their statements would run inside
 * it and be rolled back with it.
 */
export class SqliteDriver implements SqlDriver {
  readonly #database: Database
  readonly #statements = new Map<string, PreparedStatement>()
  /** Settles when the running transaction ends; undefined when none runs. */
  #transaction: Promise<void> | undefined
  readonly #onStatement: ((sql: string) => void) | undefined

  /** `onStatement` hears every statement before it runs, `begin immediate`, `commit` and `rollback` included. */
  constructor(database: Database, onStatement?: (sql: string) => void) {
    this.#database = database
    this.#onStatement = onStatement
  }

  async execute(sql: string, parameters: unknown[]): Promise<SqlRow[]> {
    while (this.#transaction !== undefined) await this.#transaction
    return this.#run(sql, parameters)
  }

  transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#exclusively(() => this.#inTransaction(work))
  }

  scriptTransaction<T>(work: (executor: ScriptExecutor) => Promise<T>): Promise<T> {
    return this.#exclusively(async () => {
      // A no-op inside a transaction, so set before BEGIN; restored whatever happens.
      this.#run('pragma foreign_keys = off', [])
      try {
        return await this.#inTransaction(async (executor) => {
          const result = await work(executor)
          this.#checkForeignKeys()
          return result
        })
      } finally {
        this.#run('pragma foreign_keys = on', [])
      }
    })
  }

  /** Runs `task` once no transaction is running, and makes every other caller wait until it ends. */
  async #exclusively<T>(task: () => Promise<T>): Promise<T> {
    while (this.#transaction !== undefined) await this.#transaction
    let end!: () => void
    this.#transaction = new Promise((resolve) => (end = resolve))
    try {
      return await task()
    } finally {
      this.#transaction = undefined
      end()
    }
  }

  async #inTransaction<T>(work: (executor: ScriptExecutor) => Promise<T>): Promise<T> {
    // Set once the work has returned or thrown: a statement sent later (a timer of a hook's) would run in
    // whatever transaction holds the connection then, and commit or roll back with someone else's work.
    let ended = false
    const open = () => {
      if (ended) throw new TransactionEndedError()
    }
    try {
      this.#run('begin immediate', [])
      const result = await work({
        execute: async (sql, parameters) => {
          open()
          return this.#run(sql, parameters)
        },
        executeScript: async (sql) => {
          open()
          this.#onStatement?.(sql)
          this.#database.exec(sql)
        },
      })
      ended = true
      this.#run('commit', [])
      return result
    } catch (error) {
      ended = true
      if (this.#database.inTransaction) this.#run('rollback', [])
      throw error
    }
  }

  /** Throws when a row references a missing one (https://www.sqlite.org/pragma.html#pragma_foreign_key_check). */
  #checkForeignKeys(): void {
    const violations = this.#run('pragma foreign_key_check', []) as ForeignKeyViolation[]
    if (violations.length === 0) return
    const shown = violations
      .slice(0, MAX_VIOLATIONS_SHOWN)
      .map((row) => `row ${row.rowid} of "${row.table}" references a missing row of "${row.parent}"`)
    const more = violations.length - shown.length
    throw new Error(
      `foreign key check failed: ${shown.join('; ')}${more > 0 ? ` (and ${more} more rows)` : ''}; ` +
        `delete or fix those rows, or point them at existing ones`,
    )
  }

  #run(sql: string, parameters: unknown[]): SqlRow[] {
    this.#onStatement?.(sql)
    let prepared = this.#statements.get(sql)
    if (prepared === undefined) {
      prepared = prepareStatement(this.#database, sql)
      this.#statements.set(sql, prepared)
    }
    const { statement, rowBuilder } = prepared
    if (rowBuilder === null) {
      statement.run(parameters)
      return []
    }
    const rows = statement.all(parameters) as unknown[][]
    // SQLite prepares a statement again after a schema change: `select *` may then return other columns.
    const builder = rows.length === 0 || rows[0]!.length === rowBuilder.width ? rowBuilder : buildRows(statement)
    if (builder !== rowBuilder) this.#statements.set(sql, { statement, rowBuilder: builder })
    return rows.map(builder.toRow)
  }
}

/** A statement and, for one that returns rows, how its rows become objects. */
interface PreparedStatement {
  readonly statement: Statement<unknown[], unknown>
  readonly rowBuilder: RowBuilder | null
}

interface RowBuilder {
  /** How many columns the statement returned when the builder was made. */
  readonly width: number
  readonly toRow: (values: unknown[]) => SqlRow
}

/**
 * Prepares `sql`, a statement returning rows in raw mode (arrays of values):
 * better-sqlite3 sets an object's properties one at a time through V8's API,
 * which costs about a third of reading a page of rows; an object literal
 * compiled once per statement (so every row has one shape) does the same for
 * much less.
 */
function prepareStatement(database: Database, sql: string): PreparedStatement {
  const statement = database.prepare<unknown[], unknown>(sql)
  if (!statement.reader) return { statement, rowBuilder: null }
  statement.raw(true)
  return { statement, rowBuilder: buildRows(statement) }
}

/** The row builder of the statement's result columns; a duplicate name keeps its last value, as in object mode. */
function buildRows(statement: Statement<unknown[], unknown>): RowBuilder {
  const columns = statement.columns()
  // Computed keys of JSON string literals: no column name can become code, and `__proto__` is a plain property.
  const members = columns.map((column, index) => `[${JSON.stringify(column.name)}]: values[${index}]`)
  const toRow = new Function('values', `return { ${members.join(', ')} }`) as (values: unknown[]) => SqlRow
  return { width: columns.length, toRow }
}
