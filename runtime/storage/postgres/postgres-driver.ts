import type Pg from 'pg'
import type { Pool, PoolClient } from 'pg'
import type { ScriptExecutor, SqlDriver, SqlExecutor, SqlRow } from '../storage-dialect.js'
import { StorageBusyError, StorageConnectionError } from '../storage-errors.js'
import { defineImplicitTransaction, type ImplicitTransactionFactory } from './implicit-transaction.js'

let loaded: typeof Pg | undefined
let openImplicitTransaction: ImplicitTransactionFactory | undefined

// How pg turns a JavaScript value into a parameter's text; not in pg's typings.
const PG_UTILS = 'pg/lib/utils.js'

/**
 * pg, imported when the first PostgreSQL connection opens rather than with the
 * runtime: a server on SQLite never loads it (~3% of a large API's start-up).
 */
export async function loadPg(): Promise<typeof Pg> {
  if (loaded === undefined) {
    const [pg, utils] = await Promise.all([import('pg'), import(PG_UTILS) as Promise<{ default: PgUtils }>])
    openImplicitTransaction = defineImplicitTransaction(pg.default, utils.default.prepareValue)
    loaded = pg.default
  }
  return loaded
}

interface PgUtils {
  prepareValue(value: unknown): unknown
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

  /**
   * An implicit transaction (ImplicitTransaction): no BEGIN or COMMIT
   * statement, one round trip fewer than scriptTransaction. onStatement hears
   * `begin` with its first statement and `commit` or `rollback` at its end.
   */
  async transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await (await this.#openPool()).connect().catch((error: Error) => {
      throw connectionFailure(error)
    })
    const transaction = openImplicitTransaction!(client)
    const onStatement = this.#onStatement
    const end = (control: 'commit' | 'rollback') => {
      if (transaction.begun) onStatement?.(control)
      return control === 'commit' ? transaction.commit() : transaction.rollback()
    }
    try {
      const result = await work({
        execute: (sql, parameters) => {
          if (onStatement !== undefined) {
            if (!transaction.begun) onStatement('begin')
            onStatement(sql)
          }
          return transaction.execute(this.#nameOf(sql), sql, parameters)
        },
      })
      await end('commit')
      client.release(transaction.unsound)
      return result
    } catch (error) {
      // A connection that cannot even roll back is discarded, not returned to the pool.
      await end('rollback').then(
        () => client.release(transaction.unsound),
        (rollbackError: Error) => client.release(rollbackError),
      )
      throw error
    }
  }

  // Foreign keys need nothing special: PostgreSQL's DDL validates them as it runs.
  async scriptTransaction<T>(work: (executor: ScriptExecutor) => Promise<T>): Promise<T> {
    const client = await (await this.#openPool()).connect().catch((error: Error) => {
      throw connectionFailure(error)
    })
    // BEGIN goes out with the transaction's first statement, in one write (the socket corked around both),
    // not awaited: the pool's connections pipeline, so both share one round trip. Each statement's result
    // waits for BEGIN's too, and a failed BEGIN fails it (on a connection that can still run a statement,
    // BEGIN does not fail). A transaction that sends nothing begins nothing.
    let begun: Promise<void> | undefined
    // Set once the connection goes back to the pool: a statement sent later (work that did not await it)
    // must not begin a transaction on a connection someone else may hold.
    let ended = false
    // A statement that failed on this side (its values would not serialize) may leave pg's record of the
    // connection's prepared statements wrong (it closes the name, still counting it prepared): such a
    // connection is discarded rather than returned to the pool.
    let unsound: Error | undefined
    const afterBegin = async <R>(send: () => Promise<R>): Promise<R> => {
      if (ended) throw new Error('a statement was sent after its transaction ended: await every statement in it')
      let statement: Promise<R>
      if (begun === undefined) {
        // pg's own extended queries cork the same socket around their messages.
        const socket = (client as unknown as Partial<Pg.Client>).connection?.stream
        socket?.cork()
        try {
          begun = this.#control(client, 'begin')
          begun.catch(() => {})
          statement = send()
        } finally {
          socket?.uncork()
        }
      } else statement = send()
      return (await Promise.all([begun, statement]))[1]
    }
    try {
      const result = await work({
        execute: (sql, parameters) =>
          afterBegin(() =>
            this.#run(client, sql, parameters, 'connection').catch((error: unknown) => {
              if (!isDatabaseError(error)) unsound ??= error instanceof Error ? error : new Error(String(error))
              throw error
            }),
          ),
        executeScript: async (sql) => {
          await afterBegin(() => {
            this.#onStatement?.(sql)
            // Without values, pg uses the simple query protocol, which runs several statements.
            return client.query(sql)
          })
        },
      })
      // Set before COMMIT goes out: a statement sent after it would run outside the transaction.
      ended = true
      if (begun !== undefined) {
        await begun
        await this.#control(client, 'commit')
      }
      client.release(unsound)
      return result
    } catch (error) {
      // A connection that cannot even roll back is discarded, not returned to the pool.
      const rolledBack = begun === undefined ? Promise.resolve() : this.#control(client, 'rollback')
      ended = true
      await rolledBack.then(
        () => client.release(unsound),
        (rollbackError: Error) => client.release(rollbackError),
      )
      throw error
    }
  }

  async #control(client: PoolClient, sql: 'begin' | 'commit' | 'rollback'): Promise<void> {
    this.#onStatement?.(sql)
    await client.query(sql)
  }

  async #run(
    client: Pool | PoolClient,
    sql: string,
    parameters: unknown[],
    on: 'pool' | 'connection',
  ): Promise<SqlRow[]> {
    this.#onStatement?.(sql)
    try {
      const result = await client.query<SqlRow>({ name: this.#nameOf(sql), text: sql, values: parameters })
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
