import type Pg from 'pg'

/** The part of pg's connection BeginningQuery writes to: the calls pg's own Query makes. */
interface PgConnection {
  readonly stream: { cork(): void; uncork(): void }
  readonly parsedStatements: Record<string, string>
  readonly submittedNamedStatements: Record<string, string>
  parse(config: { name: string; text: string }): void
  bind(config: { statement: string; values: readonly unknown[] }): void
  execute(config: { portal: string }): void
}

/** A named statement with its values, and the callback pg calls with its result. */
export type BeginningQueryClass = new (
  query: { readonly name: string; readonly text: string; readonly values: unknown[] },
  callback: (error: Error | null, result: Pg.QueryResult<Record<string, unknown>>) => void,
) => object

const BEGIN = { name: 'restmint_begin', text: 'begin' }

/**
 * The class of a transaction's first statement, built on the loaded pg: BEGIN,
 * a prepared statement of its own, goes out ahead of the statement's messages
 * in the same write and without a Sync between them, so PostgreSQL runs both
 * and answers both at once (one flush, one read); a simple-query BEGIN would
 * be flushed on its own and need a Query of its own. It stays a pg Query to pg
 * (a pipelined connection accepts no other class), which drops BEGIN's
 * CommandComplete and keeps pg's prepared-statement bookkeeping right: pg
 * records whatever ParseComplete arrives under the active query's `name`, so
 * until BEGIN has answered, `name` is unset.
 */
export function defineBeginningQuery(pg: typeof Pg): BeginningQueryClass {
  // pg's Query as this class uses it; its constructor takes (config, values, callback).
  const Query = pg.Query as unknown as new (
    config: { name: string; text: string; values: unknown[] },
    values: undefined,
    callback: (error: Error | null, result: Pg.QueryResult<Record<string, unknown>>) => void,
  ) => {
    submit(connection: PgConnection): Error | null
    handleCommandComplete(message: unknown, connection: PgConnection): void
    handleError(error: Error, connection: PgConnection): void
  }

  return class BeginningQuery extends Query {
    // Set by pg's constructor through the setter below, before this class's own fields exist: no initializer.
    declare statementName: string | undefined
    /** Between the write and BEGIN's answer. */
    #awaitingBegin = false

    constructor(
      query: { readonly name: string; readonly text: string; readonly values: unknown[] },
      callback: (error: Error | null, result: Pg.QueryResult<Record<string, unknown>>) => void,
    ) {
      super({ ...query }, undefined, callback)
    }

    // Unset while BEGIN's ParseComplete may arrive (pg's Query sets the field in its constructor: the setter).
    get name(): string | undefined {
      return this.#awaitingBegin ? undefined : this.statementName
    }

    set name(name: string | undefined) {
      this.statementName = name
    }

    override submit(connection: PgConnection): Error | null {
      const stream = connection.stream
      stream.cork()
      try {
        if (connection.parsedStatements[BEGIN.name] === undefined) connection.parse(BEGIN)
        connection.bind({ statement: BEGIN.name, values: [] })
        connection.execute({ portal: '' })
        // A statement whose values do not serialize fails here after BEGIN went out; its transaction rolls
        // back, and its connection, which this side lost track of, is discarded.
        const refused = super.submit(connection)
        this.#awaitingBegin = refused === null
        return refused
      } finally {
        stream.uncork()
      }
    }

    override handleCommandComplete(message: unknown, connection: PgConnection): void {
      if (!this.#awaitingBegin) return super.handleCommandComplete(message, connection)
      this.#awaitingBegin = false
      connection.parsedStatements[BEGIN.name] = BEGIN.text
    }

    /**
     * BEGIN itself failed (in a failed transaction already, or its prepared
     * statement gone): the server skipped the statement's Parse too, which pg,
     * finding `name` unset, has not forgotten.
     */
    override handleError(error: Error, connection: PgConnection): void {
      if (this.#awaitingBegin) {
        this.#awaitingBegin = false
        if (this.statementName !== undefined) delete connection.submittedNamedStatements[this.statementName]
      }
      super.handleError(error, connection)
    }
  }
}
