import type Pg from 'pg'
import type { PoolClient } from 'pg'
import type { SqlRow } from '../storage-dialect.js'

/** The part of pg's connection an implicit transaction drives: the calls pg's own Query makes. */
interface PgConnection {
  readonly stream: { cork(): void; uncork(): void; destroy(): void }
  readonly parsedStatements: Record<string, string>
  readonly submittedNamedStatements: Record<string, string>
  parse(config: { name: string; text: string }): void
  bind(config: { statement: string; values: readonly unknown[]; valueMapper: (value: unknown) => unknown }): void
  describe(config: { type: 'P'; name: string }): void
  execute(config: { portal: string }): void
  flush(): void
  sync(): void
}

/** pg's parsed answer to one statement (pg.Result), as far as this file reads it. */
interface PgResult {
  readonly rows: SqlRow[]
  addFields(fields: unknown[]): void
  parseRow(fields: unknown[]): SqlRow
  addRow(row: SqlRow): void
}

/** What pg hands a query it has made the connection's active one. */
interface PgQueryHandlers {
  submit(connection: PgConnection): Error | null
  handleRowDescription(message: { fields: unknown[] }): void
  handleDataRow(message: { fields: unknown[] }): void
  handleCommandComplete(message: unknown): void
  handleEmptyQuery(): void
  handleReadyForQuery(): void
  handleError(error: Error): void
}

/**
 * One transaction of statements on one pooled connection, over the extended
 * protocol's implicit transaction: every statement up to the Sync message
 * runs in one transaction, which Sync commits (or rolls back, after an error),
 * as PostgreSQL's protocol documents. Each statement goes out with Flush
 * instead of Sync, so the first one needs no BEGIN ahead of it and the end
 * needs no COMMIT statement: a write with hooks costs one message and its
 * answer more than the same write on its own, not two statements more.
 */
export interface ImplicitTransaction {
  /** Runs a named prepared statement (parsed on this connection the first time) and returns its rows. */
  execute(name: string, text: string, values: readonly unknown[]): Promise<SqlRow[]>
  /** Whether a statement went out, so there is a transaction to end. */
  readonly begun: boolean
  /** Commits; rejects (having rolled back) when a statement in it failed or the commit itself fails. */
  commit(): Promise<void>
  /** Rolls back whatever ran. */
  rollback(): Promise<void>
  /**
   * Set when this side cannot vouch for the connection's state (a statement's
   * values failed to serialize half-way through its messages, the connection
   * failed): the connection is to be discarded, not reused.
   */
  readonly unsound: Error | undefined
}

/** A statement sent, waiting for its answer. */
interface Pending {
  readonly name: string
  readonly text: string
  /** Whether this statement's Parse went out with it (its name was not prepared on the connection yet). */
  readonly parses: boolean
  readonly result: PgResult
  /** A row pg could not parse: the statement fails with it once its answer ends. */
  failure?: Error
  resolve(rows: SqlRow[]): void
  reject(error: Error): void
}

const ignore = (): void => {}

export type ImplicitTransactionFactory = (client: PoolClient) => ImplicitTransaction

/**
 * The class behind ImplicitTransaction, built on the loaded pg. It is a pg
 * Query to pg: the connection's active query from its first statement to
 * its Sync, so pg hands it every answer in between (a pipelined connection
 * accepts only pg's own Query class). pg records a statement as prepared on
 * its ParseComplete under the active query's `name` and `text`, which this
 * keeps equal to the oldest statement still waiting for its Parse's answer.
 */
export function defineImplicitTransaction(
  pg: typeof Pg,
  prepareValue: (value: unknown) => unknown,
): ImplicitTransactionFactory {
  const Result = pg.Result as unknown as new (rowMode: undefined, types: unknown) => PgResult
  // Typed here as far as this class uses it: pg sets `_result._types` (the pool's type parsers) on a query it is given.
  const Query = pg.Query as unknown as new (config: { text: string }) => {
    name: string | undefined
    text: string
    readonly _result: { readonly _types: unknown }
  }

  class PipelinedTransaction extends Query implements ImplicitTransaction, PgQueryHandlers {
    readonly #client: PoolClient
    #connection: PgConnection | undefined
    /** Statements written before pg made this the active query. */
    readonly #unsent: (() => void)[] = []
    readonly #pending: Pending[] = []
    #state: 'idle' | 'open' | 'failed' | 'ended' = 'idle'
    /** The error that ended the transaction's use: later statements fail with it, commit rethrows it. */
    #failure: Error | undefined
    #unsound: Error | undefined
    /** Settles when the answer to Sync arrives (or the transaction fails after Sync went out). */
    #settle: { resolve(): void; reject(error: Error): void } | undefined
    /** What the Sync that went out ends. */
    #ending: 'commit' | 'rollback' | undefined

    constructor(client: PoolClient) {
      super({ text: '' })
      this.#client = client
    }

    get begun(): boolean {
      return this.#state !== 'idle'
    }

    get unsound(): Error | undefined {
      return this.#unsound
    }

    execute(name: string, text: string, values: readonly unknown[]): Promise<SqlRow[]> {
      if (this.#state === 'ended') {
        return Promise.reject(
          new Error('a statement was sent after its transaction ended: await every statement in it'),
        )
      }
      if (this.#state === 'failed') return Promise.reject(abortedBy(this.#failure!))
      return new Promise((resolve, reject) => {
        const send = () => this.#send(name, text, values, resolve, reject)
        if (this.#connection !== undefined) return send()
        this.#unsent.push(send)
        if (this.#state === 'idle') {
          this.#state = 'open'
          this.#client.query(this)
        }
      })
    }

    commit(): Promise<void> {
      const state = this.#state
      // Ended even when nothing began: a statement sent later must not begin on a released connection.
      this.#state = 'ended'
      if (state === 'idle' || state === 'ended') return Promise.resolve()
      if (state === 'failed') {
        this.#endAfterFailure()
        return Promise.reject(this.#failure!)
      }
      return this.#sync('commit')
    }

    rollback(): Promise<void> {
      const state = this.#state
      this.#state = 'ended'
      if (state === 'idle' || state === 'ended') return Promise.resolve()
      if (state === 'failed') {
        this.#endAfterFailure()
        return Promise.resolve()
      }
      // Nothing failed on the server. ROLLBACK alone would abort the implicit transaction but log a WARNING
      // ("there is no transaction in progress") on the server each time; BEGIN first turns it into a
      // transaction block, what ran so far included, which ROLLBACK then ends quietly.
      return this.#sync('rollback', () => {
        for (const text of ['begin', 'rollback']) this.#write('', text, [], ignore, ignore)
      })
    }

    submit(connection: PgConnection): null {
      this.#connection = connection
      for (const send of this.#unsent.splice(0)) send()
      return null
    }

    handleRowDescription(message: { fields: unknown[] }): void {
      this.#pending[0]?.result.addFields(message.fields)
    }

    handleDataRow(message: { fields: unknown[] }): void {
      const pending = this.#pending[0]
      if (pending === undefined || pending.failure !== undefined) return
      try {
        pending.result.addRow(pending.result.parseRow(message.fields))
      } catch (error) {
        pending.failure = asError(error)
      }
    }

    handleCommandComplete(): void {
      const done = this.#pending.shift()
      this.#trackParse()
      if (done === undefined) return
      if (done.failure === undefined) done.resolve(done.result.rows)
      else {
        // The server's transaction is sound; the work decides what the failed statement means.
        done.reject(done.failure)
      }
    }

    handleEmptyQuery(): void {
      const done = this.#pending.shift()
      this.#trackParse()
      done?.resolve([])
    }

    handleReadyForQuery(): void {
      this.#settle?.resolve()
    }

    /**
     * The server's answer to a statement was an error (pg has let go of this
     * query: PostgreSQL ignores everything up to Sync, whose answer then goes
     * to no query), or the connection failed.
     */
    handleError(error: Error): void {
      const [first, ...skipped] = this.#pending.splice(0)
      // The server skipped these statements, their Parse messages included.
      for (const statement of skipped) {
        if (statement.parses) delete this.#connection?.submittedNamedStatements[statement.name]
      }
      const fromServer = error instanceof pg.DatabaseError
      // FATAL: the server is closing the connection (terminated, shutting down) and rolls back as it does.
      if (!fromServer || error.severity === 'FATAL' || error.severity === 'PANIC') this.#unsound ??= error
      this.#failure ??= error
      if (this.#state === 'open') this.#state = 'failed'
      first?.reject(error)
      for (const statement of skipped) statement.reject(abortedBy(error))
      // Statements that waited for pg to make this the active query.
      for (const send of this.#unsent.splice(0)) send()
      // A statement the work did not await failed before ROLLBACK ran: the server rolled back all the same.
      if (this.#ending === 'rollback' && fromServer) this.#settle?.resolve()
      else this.#settle?.reject(error)
    }

    #send(
      name: string,
      text: string,
      values: readonly unknown[],
      resolve: (rows: SqlRow[]) => void,
      reject: (error: Error) => void,
    ): void {
      // Failed meanwhile (pg made this the active query after the connection failed).
      if (this.#state === 'failed') return reject(abortedBy(this.#failure!))
      const connection = this.#connection!
      connection.stream.cork()
      try {
        this.#write(name, text, values, resolve, reject)
        connection.flush()
      } catch (error) {
        // pg wrote none of the statement's Bind (its values would not serialize), perhaps its Parse:
        // what the server will answer is no longer known here, so the connection goes.
        const failure = asError(error)
        this.#pending.pop()
        this.#unsound ??= failure
        this.#failure ??= failure
        this.#state = 'failed'
        reject(failure)
      } finally {
        connection.stream.uncork()
      }
    }

    #write(
      name: string,
      text: string,
      values: readonly unknown[],
      resolve: (rows: SqlRow[]) => void,
      reject: (error: Error) => void,
    ): void {
      const connection = this.#connection!
      const parses =
        name === '' ||
        (connection.parsedStatements[name] === undefined && connection.submittedNamedStatements[name] === undefined)
      if (parses) {
        connection.parse({ name, text })
        if (name !== '') connection.submittedNamedStatements[name] = text
      }
      this.#pending.push({ name, text, parses, result: new Result(undefined, this._result._types), resolve, reject })
      if (this.#pending.length === 1) this.#trackParse()
      connection.bind({ statement: name, values, valueMapper: prepareValue })
      connection.describe({ type: 'P', name: '' })
      connection.execute({ portal: '' })
    }

    /** Points pg's ParseComplete bookkeeping at the oldest statement still waiting for its answer. */
    #trackParse(): void {
      const oldest = this.#pending[0]
      const waits = oldest !== undefined && oldest.parses && oldest.name !== ''
      this.name = waits ? oldest.name : undefined
      this.text = waits ? oldest.text : ''
    }

    /** Sends Sync (after `before`, in the same write) and waits for its answer. */
    #sync(ending: 'commit' | 'rollback', before?: () => void): Promise<void> {
      const connection = this.#connection!
      this.#ending = ending
      const answered = new Promise<void>((resolve, reject) => (this.#settle = { resolve, reject }))
      connection.stream.cork()
      try {
        before?.()
        connection.sync()
      } finally {
        connection.stream.uncork()
      }
      return answered
    }

    /**
     * After a failure the server rolls back at Sync; its answer goes to no
     * query, so nothing waits for it. A connection this side lost track of
     * gets no Sync, which would commit what ran: it is closed, which rolls
     * back (pg would wait for this query's Sync before closing it).
     */
    #endAfterFailure(): void {
      if (this.#unsound === undefined) this.#connection?.sync()
      else this.#connection?.stream.destroy()
    }
  }

  return (client) => new PipelinedTransaction(client)
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}

/** What a statement after a failed one gets: the transaction is rolled back at its end whatever follows. */
function abortedBy(failure: Error): Error {
  return new Error('the transaction failed on an earlier statement and will be rolled back; no statement runs in it', {
    cause: failure,
  })
}
