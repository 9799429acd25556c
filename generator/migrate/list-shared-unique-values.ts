import type { MigrationPlan } from '../../runtime/migrations/migration-plan.js'

/**
 * One line per unique column that this migration fills with one value for
 * every existing row (a `--backfill`, or the default of a column added): with
 * two rows or more, `migrate apply` fails on the duplicate, so `migrate
 * create` says so while the SQL can still be edited to give each row its own.
 */
export function listSharedUniqueValues(plan: MigrationPlan): string[] {
  return plan.changes.flatMap(({ before, after, sources }) => {
    if (before === null || after === null) return []
    return Object.entries(sources).flatMap(([name, source]) => {
      const column = after.columns.find((candidate) => candidate.name === name)
      if (column === undefined || !column.unique) return []
      const value = source.backfill ?? (source.kind === 'new' ? column.default : null)
      if (value === null || value === undefined) return []
      return [
        `${after.name}.${name} is unique, but existing rows all get ${JSON.stringify(value)} there` +
          `${source.kind === 'new' ? '' : ' in place of NULL'}, so apply fails when two rows or more do; ` +
          `edit the SQL files to give each row its own value before applying`,
      ]
    })
  })
}
