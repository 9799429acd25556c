import { readMigrationStatus } from '../../runtime/migrations/read-migration-status.js'
import { snapshotTables } from '../../runtime/migrations/storage-snapshot.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'
import { UserError } from '../diagnostics/diagnostic.js'
import type { CliIo } from './cli-io.js'
import { compareWithLatestMigration, describeMissingMigration } from '../migrate/compare-with-latest-migration.js'
import { formatApplyCommand, locateMigrations, type MigrationOptions } from './migration-options.js'
import { applyMigrationsLogged } from './run-migrate-apply.js'
import { withDatabaseErrors } from './with-database-errors.js'

/**
 * Before `serve` with a migrations directory: refuses to start when the
 * served tables differ from the latest migration's snapshot (a migration is
 * missing: the server would otherwise create tables no migration made);
 * then with `migrate` (`serve --migrate`) applies the pending migrations;
 * without, refuses to start while any is pending, the database and the directory disagree, or the tables
 * differ from what the applied migrations lead to, naming the command that
 * applies them.
 */
export async function ensureMigrationsApplied(
  options: MigrationOptions & { readonly manifest: string; readonly migrate?: boolean },
  tables: readonly TableDefinition[],
  io: CliIo,
): Promise<void> {
  const comparison = await compareWithLatestMigration(options.migrations, io.cwd, async () => ({
    snapshot: snapshotTables(tables),
    origins: new Map(),
  }))
  if (comparison !== null && comparison.changes.length > 0) {
    throw new UserError(
      `${describeMissingMigration(comparison, options.manifest, options.migrations)}. Refusing to start (nothing was changed)`,
    )
  }
  if (options.migrate) {
    await applyMigrationsLogged(options, io)
    return
  }
  const { directory, asGiven } = locateMigrations(options, io.cwd)
  const state = await withDatabaseErrors(
    options.db,
    () => readMigrationStatus({ url: options.db, schema: options.schema, directory }),
    asGiven,
  )
  if (state.problems.length > 0) {
    throw new UserError(
      asGiven(
        `the database and ${options.migrations}/ disagree; refusing to start:\n` +
          state.problems.map((problem) => `- ${problem}`).join('\n'),
      ),
    )
  }
  if (state.drift.length > 0) throw new UserError(asGiven(`refusing to start: ${state.drift.join('\n')}`))
  if (state.pending.length === 0) return
  const names = state.pending.map((migration) => migration.name).join(', ')
  throw new UserError(
    `${state.pending.length} migration${state.pending.length === 1 ? ' is' : 's are'} pending (${names}); ` +
      `refusing to start on a database the manifest's migrations have not reached. ` +
      `Apply ${state.pending.length === 1 ? 'it' : 'them'} with ${formatApplyCommand(options)}, ` +
      `or start with restmint serve --migrate`,
  )
}
