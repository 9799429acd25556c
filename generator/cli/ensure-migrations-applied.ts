import { resolve } from 'node:path'
import { readMigrationStatus } from '../../runtime/migrations/read-migration-status.js'
import { UserError } from '../diagnostics/diagnostic.js'
import type { CliIo } from './cli-io.js'
import { formatApplyCommand, type MigrationOptions } from './migration-options.js'
import { applyMigrationsLogged } from './run-migrate-apply.js'
import { withDatabaseErrors } from './with-database-errors.js'

/**
 * Before `serve` with a migrations directory: with `migrate` (`serve
 * --migrate`) applies the pending migrations; without, refuses to start while
 * any is pending or the database and the directory disagree, naming the
 * command that applies them.
 */
export async function ensureMigrationsApplied(
  options: MigrationOptions & { readonly migrate?: boolean },
  io: CliIo,
): Promise<void> {
  if (options.migrate) {
    await applyMigrationsLogged(options, io)
    return
  }
  const state = await withDatabaseErrors(options.db, () =>
    readMigrationStatus({ url: options.db, schema: options.schema, directory: resolve(io.cwd, options.migrations) }),
  )
  if (state.problems.length > 0) {
    throw new UserError(
      `the database and ${options.migrations}/ disagree; refusing to start:\n` +
        state.problems.map((problem) => `- ${problem}`).join('\n'),
    )
  }
  if (state.pending.length === 0) return
  const names = state.pending.map((migration) => migration.name).join(', ')
  throw new UserError(
    `${state.pending.length} migration${state.pending.length === 1 ? ' is' : 's are'} pending (${names}); ` +
      `refusing to start on a database the manifest's migrations have not reached. ` +
      `Apply ${state.pending.length === 1 ? 'it' : 'them'} with ${formatApplyCommand(options)}, ` +
      `or start with restmint serve --migrate`,
  )
}
