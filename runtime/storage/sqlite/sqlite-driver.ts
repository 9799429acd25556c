import type { Database, Statement } from 'better-sqlite3'
import type { ScriptExecutor, SqlDriver, SqlExecutor, SqlRow } from '../storage-dialect.js'

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
  readonly #statements = new Map<string, Statement<unknown[], SqlRow>>()
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
          const result = await work({
            ...executor,
            executeScript: async (sql) => {
              this.#onStatement?.(sql)
              this.#database.exec(sql)
            },
          })
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

  async #inTransaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    try {
      this.#run('begin immediate', [])
      const result = await work({ execute: async (sql, parameters) => this.#run(sql, parameters) })
      this.#run('commit', [])
      return result
    } catch (error) {
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
    let statement = this.#statements.get(sql)
    if (statement === undefined) {
      statement = this.#database.prepare<unknown[], SqlRow>(sql)
      this.#statements.set(sql, statement)
    }
    if (statement.reader) return statement.all(parameters)
    statement.run(parameters)
    return []
  }
}
