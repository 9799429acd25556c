import type { MigrationDialect } from '../../runtime/migrations/migration-files.js'
import type { MigrationPlan } from '../../runtime/migrations/migration-plan.js'

/**
 * The SQL file of a migration for one dialect: a header comment (what the
 * migration does; DATA_LOSS_PREFIX lines first when it destroys data), then
 * the statements, each ending with `;` on its own line(s), readable by a reviewer.
 */
export function renderMigrationSql(plan: MigrationPlan, dialect: MigrationDialect): string {
  throw new Error(`renderMigrationSql(${dialect}) is being written on branch msql (${plan.changes.length} changes)`)
}
