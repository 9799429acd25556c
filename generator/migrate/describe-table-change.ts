import type { TableChange } from './migration-plan.js'
import type { SnapshotColumn } from '../../runtime/migrations/storage-snapshot.js'
import type { ColumnValue } from '../../runtime/contract/table-definition.js'
import { compareTableColumns, type KeptColumn } from './compare-table-columns.js'

/**
 * One line saying what a table change does, for a migration file's header:
 * `create table posts`, `drop table posts`, or `alter table posts: add
 * summary (string), rename body to content, price integer → number, …`.
 */
export function describeTableChange(change: TableChange): string {
  const { before, after } = change
  if (before === null) return `create table ${after!.name}`
  if (after === null) return `drop table ${before.name}`
  const columns = compareTableColumns(before, after, change.sources)
  const parts = [
    ...(before.name === after.name ? [] : [`rename to ${after.name}`]),
    ...columns.added.map(
      ({ column, backfill }) =>
        `add ${column.name} (${column.type}${backfill === undefined ? '' : `, existing rows ${describeValue(backfill)}`})`,
    ),
    ...columns.dropped.map((column) => `drop ${column.name}`),
    ...columns.kept.flatMap(describeColumnChange),
    ...describeIndexChanges(before.indexes, after.indexes),
  ]
  return `alter table ${before.name}${parts.length === 0 ? '' : `: ${parts.join(', ')}`}`
}

function describeColumnChange({ before, after, backfill }: KeptColumn): string[] {
  const name = after.name
  const parts: string[] = []
  if (before.name !== name) parts.push(`rename ${before.name} to ${name}`)
  if (before.type !== after.type) parts.push(`${name} ${before.type} → ${after.type}`)
  if (before.nullable !== after.nullable) {
    parts.push(
      after.nullable
        ? `${name} nullable`
        : `${name} not null${backfill === undefined ? '' : ` (nulls become ${describeValue(backfill)})`}`,
    )
  }
  if (before.unique !== after.unique) parts.push(`${name} ${after.unique ? 'unique' : 'not unique'}`)
  if (before.default !== after.default) parts.push(`${name} default ${describeValue(after.default)}`)
  const reference = describeReference(after)
  if (describeReference(before) !== reference) parts.push(`${name} ${reference}`)
  return parts
}

function describeReference(column: SnapshotColumn): string {
  const references = column.references
  return references === undefined
    ? 'references nothing'
    : `references ${references.table} on delete ${references.onDelete}`
}

function describeIndexChanges(before: readonly (readonly string[])[], after: readonly (readonly string[])[]): string[] {
  const key = (columns: readonly string[]) => columns.join(', ')
  const beforeKeys = new Set(before.map(key))
  const afterKeys = new Set(after.map(key))
  return [
    ...[...afterKeys].filter((columns) => !beforeKeys.has(columns)).map((columns) => `index (${columns})`),
    ...[...beforeKeys].filter((columns) => !afterKeys.has(columns)).map((columns) => `drop index (${columns})`),
  ]
}

function describeValue(value: ColumnValue): string {
  return value === null ? 'none' : JSON.stringify(value)
}
