import { sql } from 'kysely'
import type { StorageDialect } from '../storage/storage-dialect.js'
import type { MigrationFile } from './read-migration-files.js'

/** How many duplicated values a failure names; more would bury the message. */
const MAX_VALUES_SHOWN = 5
/** better-sqlite3: `UNIQUE constraint failed: new_posts.title`. */
const SQLITE_UNIQUE_TABLE = /UNIQUE constraint failed: ([^.\s]+)\./
/** `alter table "new_posts" rename to "posts"`: SQLite's rebuild procedure names its temporary table this way. */
const TABLE_RENAME = /alter\s+table\s+"?([^"\s]+)"?\s+rename\s+to\s+"?([^"\s;]+)"?/gi

/**
 * When `error` is a unique violation `file` ran into (a column made unique
 * over rows that share a value), the values shared, read from the table as
 * it is again after the rollback: `"posts"."title" holds "Hello" in 2 rows, "Hi" in 3 rows`.
 * PostgreSQL names the table in the error; SQLite names the table the
 * statement wrote, which in a rebuild is the temporary one, so the file's
 * `alter table … rename to …` leads back to the table. Null when the error is
 * no unique violation, or the table or column cannot be read under those
 * names (the migration also renamed them).
 */
export async function findDuplicateValues(
  dialect: StorageDialect,
  file: MigrationFile,
  error: unknown,
): Promise<string | null> {
  const failure = dialect.classifyError(error)
  if (failure?.kind !== 'unique') return null
  // A composite unique's values are duplicated together.
  const columns = failure.columns ?? (failure.column === undefined ? null : [failure.column])
  if (columns === null) return null
  const named =
    dialect.name === 'sqlite'
      ? SQLITE_UNIQUE_TABLE.exec((error as Error).message)?.[1]
      : (error as { table?: string }).table
  if (named === undefined) return null
  const renames = new Map([...file.sql.matchAll(TABLE_RENAME)].map(([, from, to]) => [from!, to!]))
  const table = renames.get(named) ?? named
  const count = sql<number | string>`count(*)`
  const value =
    columns.length === 1
      ? sql.ref(columns[0]!)
      : sql`${dialect.name === 'sqlite' ? sql`json_array` : sql`json_build_array`}(${sql.join(columns.map((column) => sql.ref(column)))})`
  const { sql: text, parameters } = dialect.db
    .selectFrom(table)
    .select([value.as('value'), count.as('rows')])
    .where((eb) => eb.and(columns.map((column) => eb(column, 'is not', null))))
    .groupBy(columns)
    .having(count, '>', 1)
    .orderBy(columns)
    .limit(MAX_VALUES_SHOWN + 1)
    .compile()
  let rows: Record<string, unknown>[]
  try {
    rows = await dialect.driver.execute(text, [...parameters])
  } catch {
    return null
  }
  if (rows.length === 0) return null
  const shown = rows
    .slice(0, MAX_VALUES_SHOWN)
    // SQLite's json_array is text; PostgreSQL's json_build_array arrives parsed.
    .map((row) => {
      const shownValue = columns.length > 1 && typeof row.value === 'string' ? JSON.parse(row.value) : row.value
      return `${formatValue(shownValue)} in ${Number(row.rows)} rows`
    })
    .join(', ')
  const columnsNamed = columns.map((column) => `"${column}"`).join(', ')
  return `"${table}".${columns.length === 1 ? columnsNamed : `(${columnsNamed})`} holds ${shown}${rows.length > MAX_VALUES_SHOWN ? ' and more' : ''}`
}

function formatValue(value: unknown): string {
  return JSON.stringify(value instanceof Date ? value.toISOString() : value)
}
