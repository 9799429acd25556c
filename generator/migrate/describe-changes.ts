import { describeColumnType, isRetyped } from './type-conversion.js'
import type { SnapshotColumn, SnapshotTable } from '../../runtime/migrations/storage-snapshot.js'
import type { ColumnValue } from '../../runtime/contract/table-definition.js'
import { compareTableColumns, type KeptColumn } from './compare-table-columns.js'
import { isSameIndexSet, type TableDiff } from './diff-snapshots.js'
import type { TableChange } from './migration-plan.js'

/** The longest default slug: the steps that fit, then `_and_<n>_more`. */
const MAX_SLUG_LENGTH = 60

/** One thing a migration does, worded for its summary line and for its default name. */
interface ChangeStep {
  readonly phrase: string
  /** Null for what follows from another step (soft delete making uniques partial), which names it already. */
  readonly slug: string | null
}

/**
 * One short phrase per table that differs, for messages: `create table reviews`,
 * `drop table coupons`, `posts: add summary, rename title to headline, alter price, drop legacy, change indexes`.
 */
export function summarizeChanges(diffs: readonly TableDiff[]): string[] {
  return diffs.map((diff) => {
    const steps = stepsOf(diff).map((step) => step.phrase)
    if (diff.before === null || diff.after === null) return steps[0]!
    return `${diff.after.name}: ${steps.join(', ')}`
  })
}

/**
 * The default slug of a migration, from the same steps as its summary: `init` for the first, else each step's
 * slug in order (`add_reviews`, `drop_posts_legacy`, `rename_posts_title_to_heading`, `alter_posts_price`,
 * `change_posts_indexes`), joined by `_` (`0004_add_products_sku_add_tags`) and cut to whole steps.
 */
export function nameMigration(diffs: readonly TableDiff[], first: boolean): string {
  if (first) return 'init'
  const slugs = diffs.flatMap((diff) => stepsOf(diff).flatMap((step) => (step.slug === null ? [] : [step.slug])))
  if (slugs.length === 0) return 'update_schema'
  const whole = slugs.join('_')
  if (whole.length <= MAX_SLUG_LENGTH) return whole
  for (let kept = slugs.length - 1; kept > 0; kept--) {
    const cut = `${slugs.slice(0, kept).join('_')}_and_${slugs.length - kept}_more`
    if (cut.length <= MAX_SLUG_LENGTH) return cut
  }
  return `${slugs[0]!.slice(0, MAX_SLUG_LENGTH - '_and_more'.length).replace(/_+$/, '')}_and_more`
}

/**
 * A migration name as a user may write it (`add-talk-abstract`, `Add Posts`): lower case, every run of other
 * characters than a-z and 0-9 one `_`. Empty when nothing of it is left.
 */
export function normalizeMigrationName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
}

function stepsOf(diff: TableDiff): ChangeStep[] {
  if (diff.before === null) {
    const { name } = diff.after!
    return [{ phrase: `create table ${name}`, slug: `add_${slugOf(name)}` }]
  }
  if (diff.after === null) {
    const { name } = diff.before
    return [{ phrase: `drop table ${name}`, slug: `drop_${slugOf(name)}` }]
  }
  const { before, after } = diff
  const table = slugOf(after.name)
  const steps: ChangeStep[] = []
  if (before.name !== after.name) {
    steps.push({
      phrase: `rename table ${before.name} to ${after.name}`,
      slug: `rename_${slugOf(before.name)}_to_${table}`,
    })
  }
  const newNames = new Map<string, string>()
  for (const pair of diff.columns) {
    const column = slugOf(pair.after.name)
    if (pair.before === null) {
      steps.push({ phrase: `add ${pair.after.name}`, slug: `add_${table}_${column}` })
      continue
    }
    newNames.set(pair.before.name, pair.after.name)
    if (pair.before.name !== pair.after.name) {
      steps.push({
        phrase: `rename ${pair.before.name} to ${pair.after.name}`,
        slug: `rename_${table}_${slugOf(pair.before.name)}_to_${column}`,
      })
    }
    const { name: _previousName, ...previous } = pair.before
    const { name: _name, ...current } = pair.after
    if (JSON.stringify(previous) !== JSON.stringify(current)) {
      steps.push({ phrase: `alter ${pair.after.name}`, slug: `alter_${table}_${column}` })
    }
  }
  for (const column of diff.droppedColumns) {
    steps.push({ phrase: `drop ${column.name}`, slug: `drop_${table}_${slugOf(column.name)}` })
  }
  if (!isSameIndexSet(before.indexes, after.indexes, (name) => newNames.get(name) ?? name)) {
    steps.push({ phrase: 'change indexes', slug: `change_${table}_indexes` })
  }
  if (!isSameIndexSet(before.uniques ?? [], after.uniques ?? [], (name) => newNames.get(name) ?? name)) {
    steps.push({ phrase: 'change unique constraints', slug: `change_${table}_uniques` })
  }
  const scope = describeUniqueScope(before, after)
  if (scope !== null) steps.push({ phrase: scope, slug: null })
  return steps
}

/**
 * When soft delete comes or goes on a table with unique constraints, what
 * becomes of them: partial indexes among live rows, or whole constraints
 * again (a deleted row's values then count). Null otherwise.
 */
function describeUniqueScope(before: SnapshotTable, after: SnapshotTable): string | null {
  if (before.softDelete === after.softDelete) return null
  if (!after.columns.some((column) => column.unique) && (after.uniques ?? []).length === 0) return null
  return after.softDelete === true
    ? 'unique constraints become partial (among live rows only: WHERE deleted_at IS NULL)'
    : 'unique constraints hold over every row again, deleted ones included'
}

function slugOf(name: string): string {
  return normalizeMigrationName(name) || 'x'
}

/**
 * One line saying what a table change does, for a migration file's header:
 * `create table posts`, `drop table posts`, or `alter table posts: add
 * summary (string), rename body to content, price integer → number, …`. An index
 * on a renamed column is the same index.
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
    ...describeIndexChanges(
      before.indexes.map((index) =>
        index.map((name) => columns.kept.find((kept) => kept.before.name === name)?.after.name ?? name),
      ),
      after.indexes,
    ),
    ...[describeUniqueScope(before, after)].filter((scope) => scope !== null),
  ]
  return `alter table ${before.name}${parts.length === 0 ? '' : `: ${parts.join(', ')}`}`
}

function describeColumnChange({ before, after, backfill }: KeptColumn): string[] {
  const name = after.name
  const parts: string[] = []
  if (before.name !== name) parts.push(`rename ${before.name} to ${name}`)
  if (isRetyped(before, after)) parts.push(`${name} ${describeColumnType(before)} → ${describeColumnType(after)}`)
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
