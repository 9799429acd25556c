import { applyMigrations } from '../../runtime/migrations/apply-migrations.js'
import { redactCredentials } from '../../runtime/storage/redact-credentials.js'
import type { CliIo } from './cli-io.js'
import { locateMigrations, requireSchemaName, type MigrationOptions } from './migration-options.js'
import { withDatabaseErrors } from './with-database-errors.js'

/** `restmint migrate apply`: applies the pending migrations, printing each; 0 when the database is up to date. */
export async function runMigrateApply(options: MigrationOptions, io: CliIo): Promise<number> {
  requireSchemaName(options.schema)
  const { adopted, applied } = await applyMigrationsLogged(options, io)
  const done = applied.length === 0 ? 'nothing to apply' : `${applied.length} applied`
  io.stdout(`restmint: ${done}${adopted === null ? '' : `, 1 adopted`}; the database is up to date\n`)
  return 0
}

/** applyMigrations for the CLI: each line it logs printed to stdout, its errors as UserError, paths as given. */
export function applyMigrationsLogged(options: MigrationOptions, io: CliIo) {
  const { directory, asGiven } = locateMigrations(options, io.cwd)
  return withDatabaseErrors(
    options.db,
    () =>
      applyMigrations({
        url: options.db,
        schema: options.schema,
        directory,
        log: (line) => io.stdout(`restmint: ${redactCredentials(asGiven(line))}\n`),
      }),
    asGiven,
  )
}
