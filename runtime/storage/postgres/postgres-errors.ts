import pg from 'pg'
import type { ConstraintFailure } from '../storage-dialect.js'

const UNIQUE_VIOLATION = '23505'
const FOREIGN_KEY_VIOLATION = '23503'

/** Recognises PostgreSQL unique and foreign-key violations; both name the constraint. */
export function classifyPostgresError(error: unknown): ConstraintFailure | undefined {
  if (!(error instanceof pg.DatabaseError)) return undefined
  switch (error.code) {
    case UNIQUE_VIOLATION:
      return { kind: 'unique', constraint: error.constraint }
    case FOREIGN_KEY_VIOLATION:
      return { kind: 'foreign-key', constraint: error.constraint }
    default:
      return undefined
  }
}
