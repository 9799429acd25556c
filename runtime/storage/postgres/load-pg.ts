import type Pg from 'pg'

let loaded: typeof Pg | undefined

/**
 * pg, imported when the first PostgreSQL connection opens rather than with the
 * runtime: a server on SQLite never loads it (~3% of a large API's start-up).
 */
export async function loadPg(): Promise<typeof Pg> {
  loaded ??= (await import('pg')).default
  return loaded
}

/** Whether `error` is PostgreSQL's own answer; none can exist before loadPg has resolved. */
export function isDatabaseError(error: unknown): error is Pg.DatabaseError {
  return loaded !== undefined && error instanceof loaded.DatabaseError
}
