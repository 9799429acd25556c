import type { TableChange } from '../../runtime/migrations/migration-plan.js'

/**
 * The default slug of a migration, from what it does: `init` for the first,
 * `add_reviews` / `drop_coupons` for one table created or dropped,
 * `add_posts_summary` / `drop_posts_summary` for one column and nothing else, `rename_writers_to_authors`,
 * `update_posts` for other changes of one table, else `update_schema`.
 */
export function nameMigration(changes: readonly TableChange[], first: boolean): string {
  if (first) return 'init'
  const [change, ...others] = changes
  if (change === undefined || others.length > 0) return 'update_schema'
  if (change.before === null) return `add_${change.after!.name}`
  if (change.after === null) return `drop_${change.before.name}`
  const { before, after } = change
  const kept = new Set(
    Object.values(change.sources).flatMap((source) => (source.kind === 'column' ? [source.column] : [])),
  )
  const added = Object.entries(change.sources).filter(([, source]) => source.kind === 'new')
  const dropped = before.columns.filter((column) => !kept.has(column.name))
  // A column renamed or altered besides the one added or dropped makes it an update: the name must not hide it.
  const othersUnchanged = Object.entries(change.sources).every(
    ([name, source]) =>
      source.kind === 'new' ||
      (source.column === name &&
        JSON.stringify(before.columns.find((column) => column.name === name)) ===
          JSON.stringify(after.columns.find((column) => column.name === name))),
  )
  const onlyColumns = (columns: number) =>
    added.length + dropped.length === columns &&
    othersUnchanged &&
    JSON.stringify(before.indexes) === JSON.stringify(after.indexes)
  if (added.length === 1 && dropped.length === 0 && onlyColumns(1)) return `add_${after.name}_${added[0]![0]}`
  if (dropped.length === 1 && added.length === 0 && onlyColumns(1)) return `drop_${after.name}_${dropped[0]!.name}`
  if (before.name !== after.name) return `rename_${before.name}_to_${after.name}`
  return `update_${after.name}`
}
