import Database from 'better-sqlite3'
import type { ConstraintFailure } from '../storage-dialect.js'

/** `UNIQUE constraint failed: authors.email` names the column; foreign-key failures name nothing. */
const UNIQUE_COLUMN = /UNIQUE constraint failed: [^.\s]+\.(\w+)/

/**
 * Recognises better-sqlite3's unique and foreign-key constraint errors, and
 * SQLITE_TOOBIG (a string or blob over SQLite's length limit), which names nothing.
 */
export function classifySqliteError(error: unknown): ConstraintFailure | undefined {
  if (!(error instanceof Database.SqliteError)) return undefined
  switch (error.code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
      return { kind: 'unique', column: UNIQUE_COLUMN.exec(error.message)?.[1] }
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return { kind: 'foreign-key' }
    case 'SQLITE_TOOBIG':
      return { kind: 'invalid-value', reason: 'is too large for the database' }
    default:
      return undefined
  }
}
