import { isRetyped } from './type-conversion.js'
import type { SnapshotColumn, SnapshotTable, StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import type { TableOrigin } from './table-origins.js'

/** One table that differs between two snapshots: created (no `before`), dropped (no `after`) or changed. */
export interface TableDiff {
  readonly before: SnapshotTable | null
  readonly after: SnapshotTable | null
  /** Each column of `after`, with the `before` column it continues (null: added). Empty for a dropped table. */
  readonly columns: readonly ColumnPair[]
  /** Columns of `before` that no column of `after` continues. Empty for a created or dropped table. */
  readonly droppedColumns: readonly SnapshotColumn[]
}

export interface ColumnPair {
  readonly before: SnapshotColumn | null
  readonly after: SnapshotColumn
}

/**
 * The tables that differ from `before` to `after`, matching tables and
 * columns by name or by the old name a rename declares (a rename whose old
 * name `before` does not have was migrated already, so it is ignored). A
 * foreign key into a renamed table is unchanged. Order and column order do
 * not count: they need no migration.
 */
export function diffSnapshots(
  before: StorageSnapshot,
  after: StorageSnapshot,
  origins: ReadonlyMap<string, TableOrigin>,
): TableDiff[] {
  const previous = new Map(before.tables.map((table) => [table.name, table]))
  const continued = new Map<string, SnapshotTable>()
  const newNameOf = new Map<string, string>()
  for (const table of after.tables) {
    const renamedFrom = origins.get(table.name)?.renamedFrom
    const source = (renamedFrom != null ? previous.get(renamedFrom) : undefined) ?? previous.get(table.name)
    if (source === undefined || newNameOf.has(source.name)) continue
    continued.set(table.name, source)
    newNameOf.set(source.name, table.name)
  }
  const diffs: TableDiff[] = []
  for (const table of after.tables) {
    const source = continued.get(table.name) ?? null
    if (source === null) {
      diffs.push({
        before: null,
        after: table,
        columns: table.columns.map((column) => ({ before: null, after: column })),
        droppedColumns: [],
      })
      continue
    }
    const diff = diffTable(source, table, origins.get(table.name), (name) => newNameOf.get(name) ?? name)
    if (diff !== null) diffs.push(diff)
  }
  for (const table of before.tables) {
    if (!newNameOf.has(table.name)) diffs.push({ before: table, after: null, columns: [], droppedColumns: [] })
  }
  return diffs
}

function diffTable(
  before: SnapshotTable,
  after: SnapshotTable,
  origin: TableOrigin | undefined,
  newTableName: (name: string) => string,
): TableDiff | null {
  const previous = new Map(before.columns.map((column) => [column.name, column]))
  const used = new Set<string>()
  const columns = after.columns.map((column): ColumnPair => {
    const renamedFrom = origin?.columns.get(column.name)?.renamedFrom
    const source = (renamedFrom != null ? previous.get(renamedFrom) : undefined) ?? previous.get(column.name)
    if (source === undefined || used.has(source.name)) return { before: null, after: column }
    used.add(source.name)
    return { before: source, after: column }
  })
  const droppedColumns = before.columns.filter((column) => !used.has(column.name))
  const changed =
    before.name !== after.name ||
    before.softDelete !== after.softDelete ||
    droppedColumns.length > 0 ||
    columns.some((pair) => pair.before === null || !isSameColumn(pair.before, pair.after, newTableName)) ||
    !isSameIndexSet(
      before.indexes,
      after.indexes,
      (name) => columns.find((pair) => pair.before?.name === name)?.after.name ?? name,
    ) ||
    !isSameIndexSet(
      before.uniques ?? [],
      after.uniques ?? [],
      (name) => columns.find((pair) => pair.before?.name === name)?.after.name ?? name,
    )
  return changed ? { before, after, columns, droppedColumns } : null
}

function isSameColumn(before: SnapshotColumn, after: SnapshotColumn, newTableName: (name: string) => string): boolean {
  return (
    before.name === after.name &&
    !isRetyped(before, after) &&
    before.nullable === after.nullable &&
    before.unique === after.unique &&
    before.default === after.default &&
    (before.references === undefined
      ? after.references === undefined
      : after.references !== undefined &&
        newTableName(before.references.table) === after.references.table &&
        before.references.onDelete === after.references.onDelete)
  )
}

/**
 * Whether two tables declare the same indexes: each index a list of columns in order (the order of the columns
 * within an index matters, the order of the indexes does not), `renamedColumn` giving a `before` column's new name.
 */
export function isSameIndexSet(
  before: SnapshotTable['indexes'],
  after: SnapshotTable['indexes'],
  renamedColumn: (name: string) => string = (name) => name,
): boolean {
  const previous = new Set(before.map((columns) => columns.map(renamedColumn).join(',')))
  const next = new Set(after.map((columns) => columns.join(',')))
  return previous.size === next.size && [...next].every((key) => previous.has(key))
}
