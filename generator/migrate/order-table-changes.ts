import type { SnapshotTable } from '../../runtime/migrations/storage-snapshot.js'

interface Change {
  readonly before: SnapshotTable | null
  readonly after: SnapshotTable | null
}

/**
 * `changes` in an order their statements can run in, otherwise keeping the
 * given order: a created or changed table after the changes that create or
 * rename the tables it references; a dropped table after the changes (drops
 * included) of the tables that reference it; and a table taking a name after
 * the change that frees that name (a drop, or a rename away). References in a
 * cycle (which validation rules out) keep the given order.
 */
export function orderTableChanges<T extends Change>(changes: readonly T[]): T[] {
  const mustFollow = (change: T, other: T): boolean => {
    if (other === change) return false
    if (change.after !== null && other.after !== null && references(change.after, other.after.name)) return true
    if (change.after === null && other.before !== null && references(other.before, change.before!.name)) return true
    return change.after !== null && other.before?.name === change.after.name && other.after?.name !== change.after.name
  }
  const ordered: T[] = []
  const visiting = new Set<T>()
  const visit = (change: T): void => {
    if (ordered.includes(change) || visiting.has(change)) return
    visiting.add(change)
    for (const other of changes) if (mustFollow(change, other)) visit(other)
    visiting.delete(change)
    ordered.push(change)
  }
  for (const change of changes) visit(change)
  return ordered
}

function references(table: SnapshotTable, target: string): boolean {
  return table.name !== target && table.columns.some((column) => column.references?.table === target)
}
