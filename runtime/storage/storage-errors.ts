import type { Row } from '../contract/table-definition.js'

/** A write would duplicate a value in a `unique` column. HTTP: 409. */
export class UniqueViolationError extends Error {
  /** `columns`: a composite unique's columns, whose values are unique together (`column` is the first). */
  constructor(
    readonly table: string,
    readonly column: string,
    readonly columns: readonly string[] = [column],
  ) {
    super(`${table}.${columns.join(', ')} must be unique${columns.length > 1 ? ' together' : ''}`)
    this.name = 'UniqueViolationError'
  }
}

/** A foreign key names a row that does not exist. HTTP: 400 on that field. */
export class MissingReferenceError extends Error {
  constructor(
    readonly table: string,
    readonly column: string,
    readonly referencedTable: string,
  ) {
    super(`${table}.${column} references a missing ${referencedTable} row`)
    this.name = 'MissingReferenceError'
  }
}

/**
 * A value the storage cannot store or compare on every dialect alike: of the
 * wrong type, an integer beyond ±Number.MAX_SAFE_INTEGER, text holding NUL
 * (U+0000) or an unpaired surrogate (U+D800–U+DFFF), a date or datetime outside 0001–9999 (UTC) or a leap second, text
 * too long for an index on the column, or anything else the database rejects
 * as invalid data (PostgreSQL SQLSTATE class 22). Thrown by insert and update
 * for written values, and by list, find, update and delete for row filter, filter,
 * keyset and id values. `column` is the column the value was for; `reason`
 * completes a sentence starting with the field name ("must not contain NUL
 * characters (U+0000)"). HTTP: 400 on that field.
 */
export class InvalidValueError extends Error {
  constructor(
    readonly table: string,
    readonly column: string,
    readonly reason: string,
  ) {
    super(`${table}.${column} ${reason}`)
    this.name = 'InvalidValueError'
  }
}

/**
 * The database refused a write for a constraint the manifest does not declare
 * (a CHECK added by hand, say) or one no column could be traced to.
 * `constraint` names it as the database does (`CHECK constraint "tags_color_check"`).
 * HTTP: 409 constraint_violation, naming it.
 */
export class ConstraintViolationError extends Error {
  constructor(
    readonly table: string,
    readonly constraint: string,
  ) {
    super(`the database refused a write to ${table}: ${constraint} failed`)
    this.name = 'ConstraintViolationError'
  }
}

/** DELETE of a row that `restrict` references still point at. HTTP: 409. */
export class RowReferencedError extends Error {
  constructor(
    readonly table: string,
    /** The table whose rows point at it (access rules are by table), and the resource it serves. */
    readonly referencingTable: string,
    readonly referencingResource: string,
    readonly count: number,
  ) {
    super(`${table} row is still referenced by ${count} ${referencingResource}`)
    this.name = 'RowReferencedError'
  }
}

/**
 * Existing tables disagree with the manifest; the server must not start.
 * `managedByMigrations`: migrations make the schema (prepare() creates
 * nothing), so the advice is a migration or undoing a hand-made change.
 */
export class SchemaMismatchError extends Error {
  constructor(
    readonly differences: readonly string[],
    options: { readonly managedByMigrations?: boolean } = {},
  ) {
    super(
      (options.managedByMigrations
        ? `The database differs from what its migrations lead to; refusing to start (nothing was changed):\n`
        : `The database does not match the manifest; refusing to start (nothing was changed):\n`) +
        differences.map((difference) => `  - ${difference}`).join('\n') +
        (options.managedByMigrations
          ? `\nA change made by hand? Undo it. A manifest change without its migration? ` +
            `Run restmint migrate create, review the migration, then restmint serve --migrate.`
          : `\nIf the manifest changed, create a migration (restmint migrate create) and apply it (restmint migrate apply, ` +
            `or serve --migrate); if the database was changed by hand, undo that change; or point --db at a new database.`),
    )
    this.name = 'SchemaMismatchError'
  }
}

/**
 * A --db / DATABASE_URL that names no supported database: an unknown kind of
 * URL, or (from prepare()) a database lacking what the storage needs.
 */
export class StorageUrlError extends Error {
  override name = 'StorageUrlError'
}

/**
 * The database could not be reached or refused the connection (network, TLS,
 * authentication): a matter of configuration, not of restmint. `cause` is the
 * driver's error.
 */
export class StorageConnectionError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause })
    this.name = 'StorageConnectionError'
  }
}

/**
 * No database connection within the pool's timeout: every one was busy and
 * none came free, or opening a new one took longer. A matter of load, not of
 * the request: HTTP 503 with Retry-After.
 */
export class StorageBusyError extends Error {
  constructor(cause: Error) {
    super(`no database connection within the pool timeout (${cause.message})`, { cause })
    this.name = 'StorageBusyError'
  }
}

/**
 * An update or delete whose precondition (RowPrecondition, storage.ts) the
 * current row fails; nothing was written. `current` is that row, read inside
 * the write's transaction. HTTP: 412 with the row's ETag.
 */
export class PreconditionFailedError extends Error {
  constructor(
    readonly table: string,
    readonly current: Row,
  ) {
    super(`the current ${table} row fails the write's precondition`)
    this.name = 'PreconditionFailedError'
  }
}

/**
 * A transaction's work resolved, but a statement it sent had failed: the
 * work caught the statement's error and went on, or never awaited the
 * statement. PostgreSQL refuses every statement after a failed one and would
 * answer COMMIT by rolling back, so the transaction was rolled back and
 * nothing it wrote stays; `cause` is the statement's error. Thrown on
 * PostgreSQL (SQLite goes on after a failed statement and commits the rest).
 * HTTP: 500 hook_failed, for an after-hook that caught or did not await a
 * `db` write that failed.
 */
export class TransactionAbortedError extends Error {
  constructor(override readonly cause: Error) {
    super(`a statement of the transaction failed, so it was rolled back: ${cause.message}`, { cause })
    this.name = 'TransactionAbortedError'
  }
}

/**
 * A statement sent through a transaction that has ended (work that did not
 * await it, or a timer's): it would run outside the transaction, on a
 * connection another request may hold by then.
 */
export class TransactionEndedError extends Error {
  constructor() {
    super('a statement was sent after its transaction ended: await every statement in it')
    this.name = 'TransactionEndedError'
  }
}
