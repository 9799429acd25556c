import type { TableDiff } from './diff-snapshots.js'

/**
 * One short phrase per table that differs, for messages: `create table reviews`,
 * `drop table coupons`, `posts: add summary, rename title to headline, alter price, drop legacy, change indexes`.
 */
export function summarizeChanges(diffs: readonly TableDiff[]): string[] {
  return diffs.map((diff) => {
    if (diff.before === null) return `create table ${diff.after!.name}`
    if (diff.after === null) return `drop table ${diff.before.name}`
    const { before, after } = diff
    const parts: string[] = before.name === after.name ? [] : [`rename table ${before.name} to ${after.name}`]
    for (const pair of diff.columns) {
      if (pair.before === null) {
        parts.push(`add ${pair.after.name}`)
        continue
      }
      if (pair.before.name !== pair.after.name) parts.push(`rename ${pair.before.name} to ${pair.after.name}`)
      const { name: _previousName, ...previous } = pair.before
      const { name: _name, ...current } = pair.after
      if (JSON.stringify(previous) !== JSON.stringify(current)) parts.push(`alter ${pair.after.name}`)
    }
    for (const column of diff.droppedColumns) parts.push(`drop ${column.name}`)
    if (JSON.stringify(before.indexes) !== JSON.stringify(after.indexes)) parts.push('change indexes')
    return `${after.name}: ${parts.join(', ')}`
  })
}
