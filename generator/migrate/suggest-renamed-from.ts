import type { SnapshotColumn, SnapshotTable } from '../../runtime/migrations/storage-snapshot.js'
import { didYouMean } from '../diagnostics/did-you-mean.js'
import { relationKeyOf } from '../names/derive-names.js'
import type { ColumnOrigin, TableOrigin } from './table-origins.js'

/**
 * "did you mean renamed_from: <old> on <new>?" for a column added while one
 * of the same type is dropped from its table: the closest name among those
 * columns, else the first. Null when there is none, or when the added column
 * cannot be renamed through `renamed_from` (the parent key, the server's).
 */
export function suggestColumnRename(
  added: SnapshotColumn,
  origin: ColumnOrigin | undefined,
  dropped: readonly SnapshotColumn[],
  resource: string,
): string | null {
  if (origin === undefined || (origin.declaredBy !== 'field' && origin.declaredBy !== 'relation')) return null
  const candidates = dropped
    .filter((column) => column.type === added.type && (origin.declaredBy === 'field' || column.name.endsWith('_id')))
    .map((column) => (origin.declaredBy === 'field' ? column.name : column.name.slice(0, -'_id'.length)))
  const own = origin.declaredBy === 'field' ? added.name : origin.name
  const old = didYouMean(own, candidates) ?? candidates[0]
  if (old === undefined || (origin.declaredBy === 'relation' && relationKeyOf(old) === added.name)) return null
  return `did you mean renamed_from: ${old} on ${origin.declaredBy} "${origin.name}" of resource "${resource}"?`
}

/** The same for a dropped table and a created one with the same columns (names and types). */
export function suggestTableRename(
  dropped: SnapshotTable,
  created: readonly SnapshotTable[],
  origins: ReadonlyMap<string, TableOrigin>,
): { readonly hint: string; readonly origin: TableOrigin } | null {
  const shape = (table: SnapshotTable) => JSON.stringify(table.columns.map((column) => [column.name, column.type]))
  const twin = created.find((table) => shape(table) === shape(dropped))
  const origin = twin === undefined ? undefined : origins.get(twin.name)
  if (origin === undefined) return null
  return {
    hint: `did you mean renamed_from: ${resourceOfTable(dropped.name)} on resource "${origin.resource}"?`,
    origin,
  }
}

/** A table's resource name: resource names are hyphenated where table names have underscores. */
export function resourceOfTable(table: string): string {
  return table.replaceAll('_', '-')
}
