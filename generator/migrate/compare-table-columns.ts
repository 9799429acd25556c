import { isRetyped } from './type-conversion.js'
import type { TableChange } from './migration-plan.js'
import type { SnapshotColumn, SnapshotTable } from '../../runtime/migrations/storage-snapshot.js'
import type { ColumnValue } from '../../runtime/contract/table-definition.js'

/** A column that exists before and after (renamed when the names differ), and the value that replaces its NULLs. */
export interface KeptColumn {
  readonly before: SnapshotColumn
  readonly after: SnapshotColumn
  readonly backfill?: ColumnValue
}

/** A new column, and what existing rows get in it when that is not its default. */
export interface AddedColumn {
  readonly column: SnapshotColumn
  readonly backfill?: ColumnValue
}

export interface ColumnChanges {
  /** In the order of the `after` columns. */
  readonly kept: readonly KeptColumn[]
  readonly added: readonly AddedColumn[]
  /** `before` columns no `after` column takes its values from. */
  readonly dropped: readonly SnapshotColumn[]
}

/**
 * Pairs the columns of a changed table through the change's sources. An
 * `after` column without a source takes the `before` column of its name when
 * there is one (the planner lists every column; this keeps a hand-built plan
 * from dropping data by omission).
 */
export function compareTableColumns(
  before: SnapshotTable,
  after: SnapshotTable,
  sources: TableChange['sources'],
): ColumnChanges {
  const beforeColumns = new Map(before.columns.map((column) => [column.name, column]))
  const kept: KeptColumn[] = []
  const added: AddedColumn[] = []
  for (const column of after.columns) {
    const source = sources[column.name] ?? { kind: 'column', column: column.name }
    const backfill = source.backfill === undefined ? {} : { backfill: source.backfill }
    const previous = source.kind === 'column' ? beforeColumns.get(source.column) : undefined
    if (source.kind === 'column' && previous === undefined && sources[column.name] !== undefined) {
      throw new Error(`table "${after.name}": column "${column.name}" comes from "${source.column}", which it lacks`)
    }
    if (previous === undefined) added.push({ column, ...backfill })
    else kept.push({ before: previous, after: column, ...backfill })
  }
  const keptNames = new Set(kept.map((column) => column.before.name))
  return { kept, added, dropped: before.columns.filter((column) => !keptNames.has(column.name)) }
}

/** Whether a kept column is stored differently (type, nullability, uniqueness, default or foreign key). */
export function isColumnAltered({ before, after }: KeptColumn, renamedTables: RenamedTables): boolean {
  return (
    isRetyped(before, after) ||
    before.nullable !== after.nullable ||
    before.unique !== after.unique ||
    before.default !== after.default ||
    !isSameReference(before, after, renamedTables)
  )
}

/** Old table name → new name, for the tables a migration renames. */
export type RenamedTables = ReadonlyMap<string, string>

/**
 * Whether both columns reference the same table (following the
 * migration's table renames, which carry foreign keys along) with the same
 * ON DELETE, or neither references any.
 */
export function isSameReference(before: SnapshotColumn, after: SnapshotColumn, renamedTables: RenamedTables): boolean {
  const target = before.references && (renamedTables.get(before.references.table) ?? before.references.table)
  return target === after.references?.table && before.references?.onDelete === after.references?.onDelete
}

/**
 * How a column's uniqueness is enforced: a UNIQUE constraint over every row,
 * or on a soft-deleting table a partial unique index over live rows
 * (buildLiveUniqueIndex); null when the column is not unique.
 */
export type UniqueForm = 'constraint' | 'live-index' | null

export function uniqueFormOf(table: SnapshotTable, column: SnapshotColumn | undefined): UniqueForm {
  if (column?.unique !== true) return null
  return table.softDelete ? 'live-index' : 'constraint'
}
