import { isRetyped } from './type-conversion.js'
import { listTableIndexes, type TableIndex } from '../../runtime/storage/build-create-statements.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'
import type { ColumnChanges } from './compare-table-columns.js'

/** An index both tables have: on the same (possibly renamed) columns, built alike, maybe under a new name. */
export interface KeptIndex {
  readonly before: TableIndex
  readonly after: TableIndex
}

export interface IndexChanges {
  readonly kept: readonly KeptIndex[]
  readonly dropped: readonly TableIndex[]
  readonly created: readonly TableIndex[]
}

/**
 * Pairs the indexes (foreign-key and declared ones, listTableIndexes) of a
 * table before and after a change. An index is kept when it covers the same
 * columns, following renames, each with the same type and nullability (which
 * decide how a dialect indexes it: PostgreSQL's `collate "C"`, `nulls first`)
 * and, for a composite unique, the same live-rows-only predicate (soft delete);
 * every other one is dropped or created.
 */
export function compareTableIndexes(
  before: TableDefinition,
  after: TableDefinition,
  columns: ColumnChanges,
): IndexChanges {
  const renamed = new Map(columns.kept.map((column) => [column.before.name, column.after.name]))
  const afterIndexes = listTableIndexes(after)
  const kept: KeptIndex[] = []
  const dropped: TableIndex[] = []
  for (const index of listTableIndexes(before)) {
    const match = afterIndexes.find(
      (candidate) =>
        candidate.foreignKey === index.foreignKey &&
        candidate.unique === index.unique &&
        candidate.live === index.live &&
        candidate.columns.length === index.columns.length &&
        candidate.columns.every((column, position) => {
          const previous = index.columns[position]!
          return (
            renamed.get(previous.name) === column.name &&
            !isRetyped(previous, column) &&
            previous.nullable === column.nullable
          )
        }),
    )
    if (match === undefined) dropped.push(index)
    else kept.push({ before: index, after: match })
  }
  const keptNames = new Set(kept.map((index) => index.after.name))
  return { kept, dropped, created: afterIndexes.filter((index) => !keptNames.has(index.name)) }
}
