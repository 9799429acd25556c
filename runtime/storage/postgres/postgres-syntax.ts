import { sql } from 'kysely'
import type { ColumnDefinition } from '../../table-definition.js'
import type { DialectSyntax } from '../storage-dialect.js'

/**
 * PostgreSQL's list-query SQL. Strings are compared with `COLLATE "C"` (code
 * point order, as SQLite's BINARY) instead of the database's locale, and
 * nullable columns are indexed `NULLS FIRST`, the order list queries sort in,
 * so an index on `(column, id)` serves both directions of a keyset walk.
 *
 * A list placeholder is bound as one array parameter and matched with
 * `= any(...)`; PostgreSQL infers the array's element type from the column.
 */
export const postgresSyntax: DialectSyntax = {
  compared,
  equated,
  inList: (column, list) => sql<boolean>`${equated(column)} = any(${list})`,
  // ILIKE under the database's own collation, so non-ASCII letters fold too.
  likeInsensitive: (column, pattern) => sql<boolean>`${sql.ref(column.name)} ilike ${pattern} escape '\\'`,
  indexColumn: (column) => (column.nullable ? sql`${compared(column)} nulls first` : compared(column)),
  // pg serializes a JS array as an array literal.
  bindList: (values) => values,
}

function compared(column: ColumnDefinition) {
  return column.type === 'string' ? sql`${sql.ref(column.name)} collate "C"` : sql.ref(column.name)
}

// Equality is the same under any deterministic collation; a unique column's constraint index uses the database's.
function equated(column: ColumnDefinition) {
  return column.unique ? sql.ref(column.name) : compared(column)
}
