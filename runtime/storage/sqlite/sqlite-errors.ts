import Database from 'better-sqlite3'
import type { ConstraintFailure } from '../storage-dialect.js'

/** `UNIQUE constraint failed: authors.email` names the column; foreign-key failures name nothing. */
const UNIQUE_COLUMN = /UNIQUE constraint failed: [^.\s]+\.(\w+)/
/** `UNIQUE constraint failed: post_tags.post_id, post_tags.tag_id` (a composite unique) names each. */
const UNIQUE_COLUMNS = /[^.\s,:]+\.(\w+)/g
/** `CHECK constraint failed: tags_color_check`, `NOT NULL constraint failed: tags.color`. */
const FAILED_CONSTRAINT = /^(\w+(?: \w+)?) constraint failed: (.+)$/

/**
 * Recognises better-sqlite3's unique and foreign-key constraint errors,
 * SQLITE_TOOBIG (a string or blob over SQLite's length limit), which names
 * nothing, and any other constraint failure.
 */
export function classifySqliteError(error: unknown): ConstraintFailure | undefined {
  if (!(error instanceof Database.SqliteError)) return undefined
  switch (error.code) {
    case 'SQLITE_CONSTRAINT_UNIQUE': {
      const columns = [...error.message.matchAll(UNIQUE_COLUMNS)].map((match) => match[1]!)
      return {
        kind: 'unique',
        column: UNIQUE_COLUMN.exec(error.message)?.[1],
        ...(columns.length > 1 ? { columns } : {}),
      }
    }
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return { kind: 'foreign-key' }
    case 'SQLITE_TOOBIG':
      return { kind: 'invalid-value', reason: 'is too large for the database' }
    default: {
      // Every other SQLITE_CONSTRAINT_* (CHECK, NOT NULL, TRIGGER…): a constraint the manifest does not declare.
      if (!error.code.startsWith('SQLITE_CONSTRAINT')) return undefined
      const failed = FAILED_CONSTRAINT.exec(error.message)
      if (failed) return { kind: 'other', description: `${failed[1]} constraint "${failed[2]}"` }
      return {
        kind: 'other',
        description: `a ${error.code === 'SQLITE_CONSTRAINT_TRIGGER' ? 'trigger' : 'constraint'} (${error.message})`,
      }
    }
  }
}
