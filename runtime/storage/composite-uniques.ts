import type { TableDefinition } from '../contract/table-definition.js'
import { nameConstraint } from './constraint-names.js'
import type { ExistingUnique } from './storage-dialect.js'

/**
 * Composite unique constraints (the manifest's `unique: [[post_id, tag_id]]`),
 * all in this one place: their names, their CREATE statements and how
 * prepare() compares them. Each is a unique INDEX rather than a table
 * constraint, on both dialects, so that it can be made partial (a WHERE
 * clause) without changing its kind.
 */
export interface CompositeUnique {
  /** `<table>_<column>__<column>_key` (nameConstraint), shortened with a hash past 63 characters. */
  readonly name: string
  readonly columns: readonly string[]
}

/** The table's composite uniques, in declaration order. */
export function listCompositeUniques(table: Pick<TableDefinition, 'name' | 'uniques'>): CompositeUnique[] {
  return (table.uniques ?? []).map((columns) => ({
    name: nameConstraint(table.name, columns.join('__'), 'key'),
    columns,
  }))
}

/**
 * Matches the database's multi-column (or partial) unique indexes against
 * the declared composite uniques (partial ones on a soft-deleting table): the differences (a declared one missing),
 * and the existing ones no declaration accounts for.
 */
export function compareCompositeUniques(
  table: Pick<TableDefinition, 'name' | 'uniques' | 'softDelete'>,
  existing: readonly ExistingUnique[],
): { readonly differences: string[]; readonly undeclared: ExistingUnique[] } {
  const key = (columns: readonly (string | null)[]) => columns.join(',')
  const declared = listCompositeUniques(table)
  // On a soft-deleting table each holds among live rows only: a partial index (its predicate is not compared).
  const partial = table.softDelete === true
  const matched = new Set<ExistingUnique>()
  const differences: string[] = []
  for (const unique of declared) {
    const found = existing.find(
      (candidate) => candidate.partial === partial && key(candidate.columns) === key(unique.columns),
    )
    if (found) matched.add(found)
    else
      differences.push(
        `table "${table.name}": the manifest declares unique: [${unique.columns.join(', ')}], ` +
          `but the database has no ${partial ? 'partial UNIQUE index (WHERE deleted_at IS NULL)' : 'UNIQUE index'} ` +
          `on (${unique.columns.join(', ')}); add one, or remove it from unique:`,
      )
  }
  return { differences, undeclared: existing.filter((unique) => !matched.has(unique)) }
}
