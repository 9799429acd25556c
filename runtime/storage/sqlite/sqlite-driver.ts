import type { Database, Statement } from 'better-sqlite3'
import type { SqlDriver, SqlExecutor, SqlRow } from '../storage-dialect.js'

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

  async transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    while (this.#transaction !== undefined) await this.#transaction
    let end!: () => void
    this.#transaction = new Promise((resolve) => (end = resolve))
    try {
      this.#run('begin immediate', [])
      const result = await work({ execute: async (sql, parameters) => this.#run(sql, parameters) })
      this.#run('commit', [])
      return result
    } catch (error) {
      if (this.#database.inTransaction) this.#run('rollback', [])
      throw error
    } finally {
      this.#transaction = undefined
      end()
    }
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
