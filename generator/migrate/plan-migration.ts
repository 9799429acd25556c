import type { ColumnSource, MigrationPlan, TableChange } from './migration-plan.js'
import type { StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import { describeColumnType, isLosslessConversion } from './type-conversion.js'
import { didYouMean } from '../diagnostics/did-you-mean.js'
import type { ManifestPath } from '../manifest/source-ranges.js'
import type { Backfill } from './backfill.js'
import { diffSnapshots, type TableDiff } from './diff-snapshots.js'
import type { MigrationProblem } from './migration-problem.js'
import { orderTableChanges } from './order-table-changes.js'
import { resourceOfTable, suggestColumnRename, suggestTableRename } from './suggest-renamed-from.js'
import type { ColumnOrigin, TableOrigin } from './table-origins.js'

export interface MigrationRequest {
  /** What the existing migrations lead to. */
  readonly before: StorageSnapshot
  /** The manifest's storage model. */
  readonly after: StorageSnapshot
  /** Renames, names and manifest paths of the tables of `after`. */
  readonly origins: ReadonlyMap<string, TableOrigin>
  readonly backfills: readonly Backfill[]
  readonly allowDataLoss: boolean
}

/** The plan (null when an error stops it), with every problem found, not only the first. */
export interface PlannedMigration {
  readonly plan: MigrationPlan | null
  readonly problems: readonly MigrationProblem[]
}

/**
 * Plans the migration from `before` to `after`: which tables are created,
 * dropped or changed, in an order the SQL can run in, and where existing rows
 * take each column's value from. Errors: a column becoming NOT NULL over
 * existing rows without a value for them (MIGRATION_VALUE_NEEDED), data loss
 * not allowed (MIGRATION_DATA_LOSS), a backfill nothing uses
 * (MIGRATION_BACKFILL_UNUSED). A drop next to an addition of the same type
 * suggests `renamed_from` (as a warning when data loss is allowed).
 */
export function planMigration(request: MigrationRequest): PlannedMigration {
  const problems: MigrationProblem[] = []
  const dataLoss: string[] = []
  const unusedBackfills = new Set(request.backfills)
  const loseData = (line: string, message: string, path: ManifestPath, hint: string | null): void => {
    if (request.allowDataLoss) {
      dataLoss.push(line)
      if (hint !== null)
        problems.push({ code: 'MIGRATION_DATA_LOSS', severity: 'warning', message: `${message}; ${hint}`, path })
      return
    }
    const fix =
      hint === null
        ? 'pass --allow-data-loss to accept the loss'
        : `${hint} Otherwise pass --allow-data-loss to accept the loss`
    problems.push({ code: 'MIGRATION_DATA_LOSS', severity: 'error', message: `${message}; ${fix}`, path })
  }
  const takeBackfill = (table: string, column: string): Backfill | undefined => {
    const backfill = request.backfills.find((candidate) => candidate.table === table && candidate.column === column)
    if (backfill !== undefined) unusedBackfills.delete(backfill)
    return backfill
  }

  const diffs = diffSnapshots(request.before, request.after, request.origins)
  const created = diffs.flatMap((diff) => (diff.before === null && diff.after !== null ? [diff.after] : []))
  const changes: TableChange[] = []
  for (const diff of diffs) {
    if (diff.after === null) {
      const table = diff.before!.name
      const suggestion = suggestTableRename(diff.before!, created, request.origins)
      loseData(
        `table ${table} (all its rows)`,
        `resource "${resourceOfTable(table)}" is no longer in the manifest: the migration drops table ${table} with all its rows`,
        suggestion?.origin.path ?? ['resources'],
        suggestion === null ? null : `if it was renamed, declare it: ${suggestion.hint}`,
      )
      changes.push({ before: diff.before, after: null, sources: {} })
      continue
    }
    if (diff.before === null) {
      changes.push({ before: null, after: diff.after, sources: {} })
      continue
    }
    changes.push(planTableChange(diff, request.origins.get(diff.after.name), { loseData, takeBackfill, problems }))
  }
  for (const backfill of unusedBackfills) {
    const origin = request.origins.get(backfill.table)
    problems.push({
      code: 'MIGRATION_BACKFILL_UNUSED',
      severity: 'error',
      message:
        `--backfill ${backfill.option} is not needed: column ${backfill.column} of table ${backfill.table} ` +
        `is neither added to existing rows nor made NOT NULL by this migration; remove the option`,
      path: origin?.columns.get(backfill.column)?.path ?? origin?.path ?? ['resources'],
    })
  }
  if (problems.some((problem) => problem.severity === 'error')) return { plan: null, problems }
  return {
    plan: { before: request.before, after: request.after, changes: orderTableChanges(changes), dataLoss },
    problems,
  }
}

interface Rules {
  readonly loseData: (line: string, message: string, path: ManifestPath, hint: string | null) => void
  readonly takeBackfill: (table: string, column: string) => Backfill | undefined
  readonly problems: MigrationProblem[]
}

/** The change of a table that existed and still does: where each column's values come from, and what is lost. */
function planTableChange(diff: TableDiff, origin: TableOrigin | undefined, rules: Rules): TableChange {
  const before = diff.before!
  const after = diff.after!
  const resource = origin?.resource ?? resourceOfTable(after.name)
  const describe = (column: string) => describeColumn(column, origin?.columns.get(column), resource)
  const pathOf = (column: string) => origin?.columns.get(column)?.path ?? origin?.path ?? ['resources']
  const added = diff.columns.flatMap((pair) => (pair.before === null ? [pair.after] : []))
  const sources: Record<string, ColumnSource> = {}
  for (const { before: previous, after: column } of diff.columns) {
    const becomesNotNull = previous !== null && previous.nullable && !column.nullable
    const narrowed = previous !== null && !isLosslessConversion(previous, column)
    // Values a narrowing does not convert become NULL: a NOT NULL column needs a value for them too.
    const needsFill = becomesNotNull || (narrowed && !column.nullable)
    // Only a column added or needing a fill takes one; any other is left unused and reported.
    const given = previous === null || needsFill ? rules.takeBackfill(after.name, column.name)?.value : undefined
    const backfill = given ?? (previous === null ? origin?.columns.get(column.name)?.olderValue : undefined)
    if (previous === null) {
      sources[column.name] = backfill === undefined ? { kind: 'new' } : { kind: 'new', backfill }
      if (!column.nullable && column.default === null && backfill === undefined) {
        const hint = suggestColumnRename(column, origin?.columns.get(column.name), diff.droppedColumns, resource)
        rules.problems.push({
          code: 'MIGRATION_VALUE_NEEDED',
          severity: 'error',
          message:
            `${describe(column.name)} is added as NOT NULL (required, without a default), so the rows already in table ${after.name} need a value for it: ` +
            `give it a default in the manifest, or pass --backfill ${resource}.${column.name}=<value>` +
            (hint === null ? '' : `; or, if it is an old column renamed, ${hint}`),
          path: pathOf(column.name),
        })
      }
      continue
    }
    const fill = needsFill ? (backfill ?? (column.default === null ? undefined : column.default)) : undefined
    sources[column.name] =
      fill === undefined
        ? { kind: 'column', column: previous.name }
        : { kind: 'column', column: previous.name, backfill: fill }
    if (needsFill && fill === undefined) {
      const nulls = becomesNotNull
        ? `becomes NOT NULL, but existing rows of table ${after.name} may hold NULL there`
        : `is NOT NULL and changes type from ${describeColumnType(previous)} to ${describeColumnType(column)}, so rows of table ${after.name} whose values do not convert need a value`
      rules.problems.push({
        code: 'MIGRATION_VALUE_NEEDED',
        severity: 'error',
        message:
          `${describe(column.name)} ${nulls}: ` +
          `give it a default in the manifest (it replaces the NULLs), or pass --backfill ${resource}.${column.name}=<value>`,
        path: pathOf(column.name),
      })
    }
    if (narrowed) {
      rules.loseData(
        `column ${after.name}.${column.name}: ${describeColumnType(previous)} → ${describeColumnType(column)} (values that do not convert are lost)`,
        `${describe(column.name)} changes type from ${describeColumnType(previous)} to ${describeColumnType(column)}: ${
          column.type === 'decimal' && previous.type === 'decimal'
            ? 'stored values are rounded to its scale, and those with more integer digits than it holds are lost'
            : `stored values that are not valid ${column.type}s are lost`
        }`,
        pathOf(column.name),
        null,
      )
    }
  }
  for (const column of diff.droppedColumns) {
    const sameType = added.filter((candidate) => candidate.type === column.type)
    const closest = didYouMean(
      column.name,
      sameType.map((candidate) => candidate.name),
    )
    const target = sameType.find((candidate) => candidate.name === closest) ?? sameType[0]
    const hint =
      target === undefined ? null : suggestColumnRename(target, origin?.columns.get(target.name), [column], resource)
    rules.loseData(
      `column ${before.name}.${column.name} (all its values)`,
      `column ${column.name} is no longer in resource "${resource}": the migration drops it from table ${before.name} with all its values`,
      target !== undefined && hint !== null ? pathOf(target.name) : (origin?.path ?? ['resources']),
      hint === null ? null : `if it was renamed, declare it: ${hint}`,
    )
  }
  return { before, after, sources }
}

function describeColumn(column: string, origin: ColumnOrigin | undefined, resource: string): string {
  switch (origin?.declaredBy) {
    case 'relation':
      return `column ${column} of relation "${origin.name}" of resource "${resource}"`
    case 'parent':
      return `parent key ${column} of resource "${resource}"`
    default:
      return `field "${column}" of resource "${resource}"`
  }
}
