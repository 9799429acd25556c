import type { ConstraintFailure } from '../storage-dialect.js'
import { isDatabaseError } from './postgres-driver.js'

const UNIQUE_VIOLATION = '23505'
const FOREIGN_KEY_VIOLATION = '23503'
/** SQLSTATE class 23, integrity constraint violation: also NOT NULL (23502), CHECK (23514), EXCLUDE (23P01). */
const INTEGRITY_CONSTRAINT_CLASS = '23'
/** SQLSTATE class 22, data exception: a value the type cannot hold (22003, 22021 NUL in text, 22P02, 22008…). */
const DATA_EXCEPTION_CLASS = '22'
/** Among others, "index row size … exceeds btree … maximum … for index": a value too long to be indexed. */
const PROGRAM_LIMIT_EXCEEDED = '54000'

/** `Key (email)=(ada@example.com) already exists.` / `Key (author_id)=(9) is not present in table "authors".` */
const KEY_COLUMN = /^Key \((\w+)\)=/
/** `Key (author_id, slug)=(1, a) already exists.`: a composite unique names each of its columns. */
const KEY_COLUMNS = /^Key \((\w+(?:, \w+)+)\)=/

/**
 * Recognises PostgreSQL unique and foreign-key violations (both name the
 * constraint, and their detail the column) and values the database refuses:
 * data exceptions, which name the column only sometimes, and index rows too
 * large, which name the index.
 */
export function classifyPostgresError(error: unknown): ConstraintFailure | undefined {
  if (!isDatabaseError(error)) return undefined
  const code = error.code ?? ''
  switch (code) {
    case UNIQUE_VIOLATION:
      return {
        kind: 'unique',
        column: keyColumn(error.detail),
        constraint: error.constraint,
        ...keyColumns(error.detail),
      }
    case FOREIGN_KEY_VIOLATION:
      return { kind: 'foreign-key', column: keyColumn(error.detail), constraint: error.constraint }
    case PROGRAM_LIMIT_EXCEEDED:
      return error.constraint === undefined
        ? undefined
        : { kind: 'invalid-value', constraint: error.constraint, reason: 'is too long to be indexed' }
    default:
      if (code.startsWith(INTEGRITY_CONSTRAINT_CLASS)) return { kind: 'other', description: describe(error) }
      return code.startsWith(DATA_EXCEPTION_CLASS)
        ? {
            kind: 'invalid-value',
            column: error.column,
            reason: `is not a value the database accepts (${error.message})`,
          }
        : undefined
  }
}

/** `CHECK constraint "tags_color_check"`, `NOT NULL constraint on column "color"`, else the driver's message. */
function describe(error: { code?: string; constraint?: string; column?: string; message: string }): string {
  const kind = error.code === '23514' ? 'CHECK' : error.code === '23502' ? 'NOT NULL' : 'the'
  if (error.constraint !== undefined) return `${kind} constraint "${error.constraint}"`
  if (error.column !== undefined) return `${kind} constraint on column "${error.column}"`
  return `a constraint (${error.message})`
}

function keyColumn(detail: string | undefined): string | undefined {
  return detail === undefined ? undefined : KEY_COLUMN.exec(detail)?.[1]
}

function keyColumns(detail: string | undefined): { columns?: string[] } {
  const listed = detail === undefined ? undefined : KEY_COLUMNS.exec(detail)?.[1]
  return listed === undefined ? {} : { columns: listed.split(', ') }
}
