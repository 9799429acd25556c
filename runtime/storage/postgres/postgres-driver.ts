import type Pg from 'pg'
import type { Pool, PoolClient } from 'pg'
import type { ScriptExecutor, SqlDriver, SqlExecutor, SqlRow } from '../storage-dialect.js'
import {
  StorageBusyError,
  StorageConnectionError,
  TransactionAbortedError,
  TransactionEndedError,
} from '../storage-errors.js'
import { defineBeginningQuery, type BeginningQueryClass } from './beginning-query.js'

let loaded: typeof Pg | undefined
let BeginningQuery: BeginningQueryClass | undefined

/**
 * pg, imported when the first PostgreSQL connection opens rather than with the
 * runtime: a server on SQLite never loads it (~3% of a large API's start-up).
 */
export async function loadPg(): Promise<typeof Pg> {
  if (loaded === undefined) {
    const pg = (await import('pg')).default
    BeginningQuery = defineBeginningQuery(pg)
    loaded = pg
  }
  return loaded
}

/** Whether `error` is PostgreSQL's own answer; none can exist before loadPg has resolved. */
export function isDatabaseError(error: unknown): error is Pg.DatabaseError {
  return loaded !== undefined && error instanceof loaded.DatabaseError
}

/**
 * Executes SQL on a pg pool as named prepared statements, one name per SQL
 * text, so each connection parses and plans a query shape once.
 */
export class PostgresDriver implements SqlDriver {
  readonly #openPool: () => Promise<Pool>
  readonly #statementNames = new Map<string, string>()
  readonly #onStatement: ((sql: string) => void) | undefined

  /**
   * `openPool` gives the same pool every time. `onStatement` hears every
   * statement before it is sent, `begin`, `commit` and `rollback` included.
   */
  constructor(openPool: () => Promise<Pool>, onStatement?: (sql: string) => void) {
    this.#openPool = openPool
    this.#onStatement = onStatement
  }

  async execute(sql: string, parameters: unknown[]): Promise<SqlRow[]> {
    const client = await this.#connect()
    try {
      const rows = await this.#run(client, sql, parameters)
      client.release()
      return rows
    } catch (error) {
      // pg-pool's own query() discards the connection on any error, a unique violation included, and with it
      // every statement prepared on it: only a connection this side or the server cannot vouch for goes.
      client.release(reusableAfter(error) ? undefined : (error as Error))
      // Anything but the server's own answer: the connection failed.
      if (!isDatabaseError(error) && error instanceof Error) throw connectionFailure(error)
      throw error
    }
  }

  /** A connection of the pool, for a statement or a transaction. */
  async #connect(): Promise<PoolClient> {
    return (await this.#openPool()).connect().catch((error: Error) => {
      throw connectionFailure(error)
    })
  }

  transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    return this.scriptTransaction(work)
  }

  // Foreign keys need nothing special: PostgreSQL's DDL validates them as it runs.
  async scriptTransaction<T>(work: (executor: ScriptExecutor) => Promise<T>): Promise<T> {
    const client = await this.#connect()
    // BEGIN goes out with the transaction's first statement, not a round trip before it; a transaction that
    // sends nothing begins nothing.
    let begun = false
    // Set once COMMIT or ROLLBACK goes out: a statement sent later (work that did not await it) would run
    // outside the transaction, on a connection someone else may hold by then.
    let ended = false
    // The first statement that failed: the transaction is rolled back whatever the work does after it, as
    // PostgreSQL does after a statement it refused (it refuses every later one, and answers COMMIT by rolling back).
    let failed: Error | undefined
    // A statement that failed on this side (its values would not serialize) may leave pg's record of the
    // connection's prepared statements wrong (it closes the name, still counting it prepared): such a
    // connection is discarded rather than returned to the pool.
    let unsound: Error | undefined
    // Statements not answered yet: the work may not have awaited one, which decides whether COMMIT may go.
    const unanswered = new Set<Promise<unknown>>()
    const send = <R>(statement: (begins: boolean) => Promise<R>): Promise<R> => {
      if (ended) {
        const late = Promise.reject(new TransactionEndedError())
        // Handled here as every statement's failure is (the transaction hears of it): a hook that fires and
        // forgets must not end the process with an unhandled rejection.
        late.catch(() => {})
        return late
      }
      const begins = !begun
      begun = true
      if (begins) this.#onStatement?.('begin')
      const sent = statement(begins)
      unanswered.add(sent)
      sent.then(
        () => unanswered.delete(sent),
        (error: unknown) => {
          unanswered.delete(sent)
          const failure = error instanceof Error ? error : new Error(String(error))
          failed ??= failure
          if (!reusableAfter(error)) unsound ??= failure
        },
      )
      return sent
    }
    let result: T
    try {
      result = await work({
        execute: (sql, parameters) => send((begins) => this.#run(client, sql, parameters, begins)),
        executeScript: (sql) =>
          send(async (begins) => {
            // A script runs through the simple query protocol (several statements, no values): BEGIN as its
            // own statement, in the same write.
            const socket = (client as unknown as Partial<Pg.Client>).connection?.stream
            socket?.cork()
            let opened: Promise<unknown> | undefined
            let script: Promise<unknown>
            try {
              if (begins) opened = client.query('begin')
              this.#onStatement?.(sql)
              script = client.query(sql)
            } finally {
              socket?.uncork()
            }
            await Promise.all([opened, script])
          }),
      })
    } catch (error) {
      ended = true
      await this.#rollback(client, begun, unsound)
      throw error
    }
    ended = true
    if (!begun) {
      client.release()
      return result
    }
    // Costs a wait only when the work left a statement unanswered.
    if (unanswered.size > 0) await Promise.allSettled(unanswered)
    if (failed !== undefined) {
      await this.#rollback(client, begun, unsound)
      throw new TransactionAbortedError(failed)
    }
    this.#onStatement?.('commit')
    let committed: Pg.QueryResult
    try {
      committed = await client.query(COMMIT)
    } catch (error) {
      // The server refused COMMIT as it ran (a deferred constraint) and rolled back, leaving the connection idle;
      // otherwise (the connection failed, or the transaction is still open) it is in no state to reuse.
      const over = isDatabaseError(error) && client.getTransactionStatus() === 'I'
      client.release(over ? unsound : (error as Error))
      throw error
    }
    client.release(unsound)
    // Every statement was answered without failing before COMMIT went out: COMMIT commits.
    if (committed.command !== 'COMMIT') throw new Error(`COMMIT was answered ${committed.command}`)
    return result
  }

  /** Ends a transaction that will not commit; a connection that cannot even roll back is discarded. */
  async #rollback(client: PoolClient, begun: boolean, unsound: Error | undefined): Promise<void> {
    if (!begun) return client.release()
    this.#onStatement?.('rollback')
    await client.query(ROLLBACK).then(
      () => client.release(unsound),
      (rollbackError: Error) => client.release(rollbackError),
    )
  }

  async #run(client: PoolClient, sql: string, parameters: unknown[], begins = false): Promise<SqlRow[]> {
    this.#onStatement?.(sql)
    const query = { name: this.#nameOf(sql), text: sql, values: parameters }
    const result = begins
      ? await new Promise<Pg.QueryResult<SqlRow>>((resolve, reject) =>
          // A Submittable to pg, which hands it the connection to write to.
          client.query(
            new BeginningQuery!(query, (error, answer) => (error ? reject(error) : resolve(answer))) as Pg.Submittable,
          ),
        )
      : await client.query<SqlRow>(query)
    return result.rows
  }

  #nameOf(sql: string): string {
    let name = this.#statementNames.get(sql)
    if (name === undefined) {
      name = `restmint_${this.#statementNames.size + 1}`
      this.#statementNames.set(sql, name)
    }
    return name
  }
}

/**
 * Whether a connection may serve again after `error` failed a statement on it:
 * the server refused the statement and goes on. Not when this side failed (pg
 * may have lost track of what it sent), the server is closing the connection
 * (FATAL), or pg's record of the connection's prepared statements is wrong (a
 * name it counts prepared is not, or the reverse: every later use of the name
 * would fail the same way).
 */
function reusableAfter(error: unknown): boolean {
  if (!isDatabaseError(error)) return false
  if (error.severity === 'FATAL' || error.severity === 'PANIC') return false
  return error.code !== '26000' && error.code !== '42P05'
}

/**
 * Transaction control as simple queries, not prepared statements: a prepared
 * COMMIT's CommandComplete waits for its Sync, and a backend terminated in
 * between answers FATAL instead of ReadyForQuery, so pg would report a failed
 * COMMIT that committed. A simple query's CommandComplete and ReadyForQuery go
 * out together.
 */
const COMMIT = 'commit'
const ROLLBACK = 'rollback'

/**
 * pg-pool's errors when no connection comes within `connectionTimeoutMillis`:
 * none came free in time, or a new one took longer to open. It gives them no code.
 */
const POOL_TIMEOUT_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
])

function connectionFailure(error: Error): StorageBusyError | StorageConnectionError {
  return POOL_TIMEOUT_MESSAGES.has(error.message) ? new StorageBusyError(error) : new StorageConnectionError(error)
}
