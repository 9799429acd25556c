import type Pg from 'pg'
import type { Pool, PoolClient } from 'pg'
import type { ScriptExecutor, SqlDriver, SqlExecutor, SqlRow } from '../storage-dialect.js'
import { StorageBusyError, StorageConnectionError } from '../storage-errors.js'
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
    return this.#run(await this.#openPool(), sql, parameters, 'pool')
  }

  transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    return this.scriptTransaction(work)
  }

  // Foreign keys need nothing special: PostgreSQL's DDL validates them as it runs.
  async scriptTransaction<T>(work: (executor: ScriptExecutor) => Promise<T>): Promise<T> {
    const client = await (await this.#openPool()).connect().catch((error: Error) => {
      throw connectionFailure(error)
    })
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
    const send = <R>(statement: (begins: boolean) => Promise<R>): Promise<R> => {
      if (ended) {
        return Promise.reject(
          new Error('a statement was sent after its transaction ended: await every statement in it'),
        )
      }
      const begins = !begun
      begun = true
      if (begins) this.#onStatement?.('begin')
      const sent = statement(begins)
      sent.catch((error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error))
        failed ??= failure
        if (!isDatabaseError(error)) unsound ??= failure
      })
      return sent
    }
    let result: T
    try {
      result = await work({
        execute: (sql, parameters) => send((begins) => this.#run(client, sql, parameters, 'connection', begins)),
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
      client.release(unsound)
      return result
    }
    if (failed !== undefined) {
      await this.#rollback(client, begun, unsound)
      throw failed
    }
    this.#onStatement?.('commit')
    let committed: Pg.QueryResult
    try {
      committed = await client.query(COMMIT)
    } catch (error) {
      // The server refused COMMIT (a deferred constraint) and rolled back, or the connection failed.
      client.release(isDatabaseError(error) ? unsound : (error as Error))
      throw error
    }
    client.release(unsound)
    // PostgreSQL answers COMMIT of a failed transaction with ROLLBACK, not an error: a statement the work did
    // not await failed.
    if (committed.command !== 'COMMIT') {
      throw (
        failed ?? new Error('the transaction was rolled back at COMMIT: a statement in it that was not awaited failed')
      )
    }
    return result
  }

  /** Ends a transaction that will not commit; a connection that cannot even roll back is discarded. */
  async #rollback(client: PoolClient, begun: boolean, unsound: Error | undefined): Promise<void> {
    if (!begun) return client.release(unsound)
    this.#onStatement?.('rollback')
    await client.query(ROLLBACK).then(
      () => client.release(unsound),
      (rollbackError: Error) => client.release(rollbackError),
    )
  }

  async #run(
    client: Pool | PoolClient,
    sql: string,
    parameters: unknown[],
    on: 'pool' | 'connection',
    begins = false,
  ): Promise<SqlRow[]> {
    this.#onStatement?.(sql)
    const query = { name: this.#nameOf(sql), text: sql, values: parameters }
    try {
      const result = begins
        ? await new Promise<Pg.QueryResult<SqlRow>>((resolve, reject) =>
            // A Submittable to pg, which hands it the connection to write to.
            client.query(
              new BeginningQuery!(query, (error, answer) =>
                error ? reject(error) : resolve(answer),
              ) as Pg.Submittable,
            ),
          )
        : await client.query<SqlRow>(query)
      return result.rows
    } catch (error) {
      // On the pool, anything but the server's own answer failed while acquiring a connection.
      if (on === 'pool' && !isDatabaseError(error) && error instanceof Error) {
        throw connectionFailure(error)
      }
      throw error
    }
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

/** Transaction control as prepared statements: parsed once per connection, no simple query to parse each time. */
const COMMIT = { name: 'restmint_commit', text: 'commit' }
const ROLLBACK = { name: 'restmint_rollback', text: 'rollback' }

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
