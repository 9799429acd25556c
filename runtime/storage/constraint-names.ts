import { createHash } from 'node:crypto'
import type { ColumnDefinition, TableDefinition } from '../contract/table-definition.js'

/** PostgreSQL truncates longer identifiers, which would break the name → column lookup. */
const MAX_IDENTIFIER_LENGTH = 63

/** What a named constraint or index is for: `key` unique, `fkey` foreign key, `idx` index. */
export type ConstraintKind = 'key' | 'fkey' | 'idx'

/** The column a named constraint guards. */
export interface ConstrainedColumn {
  readonly table: TableDefinition
  readonly column: ColumnDefinition
  /** A composite unique's columns, in order (`column` is the first); absent for one-column constraints. */
  readonly columns?: readonly string[]
}

/**
 * Names the constraint or index on one column `<table>_<column>_<kind>`
 * (PostgreSQL's own convention); names over 63 characters are shortened and
 * made unique with a hash of the full name.
 */
export function nameConstraint(table: string, column: string, kind: ConstraintKind): string {
  const name = `${table}_${column}_${kind}`
  if (name.length <= MAX_IDENTIFIER_LENGTH) return name
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8)
  return `${name.slice(0, MAX_IDENTIFIER_LENGTH - hash.length - kind.length - 2)}_${hash}_${kind}`
}

/**
 * Names an index on `columns` like a one-column constraint (`posts_price_idx`,
 * the same name as the foreign-key index on that column), joining several
 * columns with `__` (`posts_created_at__id_idx`), which no lower_snake_case
 * column name contains, so different column lists never share a name.
 */
export function nameIndex(table: string, columns: readonly string[]): string {
  return nameConstraint(table, columns.join('__'), 'idx')
}

/**
 * Maps the name of every unique and foreign-key constraint of `tables` to its
 * column, so a driver error that names only the constraint can name the
 * column; and the name of every declared index to its first string column
 * (else its first column), for an index entry PostgreSQL finds too large.
 */
export function mapConstraintNames(tables: readonly TableDefinition[]): Map<string, ConstrainedColumn> {
  const constraints = new Map<string, ConstrainedColumn>()
  for (const table of tables) {
    const columns = new Map(table.columns.map((column) => [column.name, column]))
    for (const index of table.indexes ?? []) {
      const indexed = index.columns.flatMap((name) => columns.get(name) ?? [])
      const column = indexed.find((candidate) => candidate.type === 'string') ?? indexed[0]
      if (column !== undefined) constraints.set(nameIndex(table.name, [...new Set(index.columns)]), { table, column })
    }
    for (const unique of table.uniques ?? []) {
      const column = columns.get(unique[0]!)
      if (column !== undefined) {
        constraints.set(nameConstraint(table.name, unique.join('__'), 'key'), { table, column, columns: unique })
      }
    }
    for (const column of table.columns) {
      if (column.unique) constraints.set(nameConstraint(table.name, column.name, 'key'), { table, column })
      if (column.references) constraints.set(nameConstraint(table.name, column.name, 'fkey'), { table, column })
    }
  }
  return constraints
}
