import { existsSync } from 'node:fs'
import { readMigrationFiles } from '../../runtime/migrations/read-migration-files.js'
import { readMigrationStatus } from '../../runtime/migrations/read-migration-status.js'
import type { MigrationState } from '../../runtime/migrations/read-migration-state.js'
import { redactCredentials } from '../../runtime/storage/redact-credentials.js'
import type { CliIo } from './cli-io.js'
import { formatApplyCommand, locateMigrations, requireSchemaName, type MigrationOptions } from './migration-options.js'
import { withDatabaseErrors } from './with-database-errors.js'

/**
 * `restmint migrate status`: lists each migration as applied (with when) or
 * pending. 0 when none is pending; 1 when some are, or when the database and
 * the directory disagree, or the tables differ from what the applied
 * migrations lead to (listed on stderr), so scripts and CI can ask
 * whether a database is up to date. Creates nothing: an SQLite file that does
 * not exist has every migration pending.
 */
export async function runMigrateStatus(options: MigrationOptions, io: CliIo): Promise<number> {
  requireSchemaName(options.schema)
  const { directory, asGiven } = locateMigrations(options, io.cwd)
  const missingFile = missingSqliteFile(options.db)
  const state = await withDatabaseErrors(
    options.db,
    async () =>
      missingFile === null
        ? readMigrationStatus({ url: options.db, schema: options.schema, directory })
        : neverMigrated(readMigrationFiles(directory, 'sqlite')),
    asGiven,
  )
  const width = Math.max(0, ...[...state.applied, ...state.pending].map((migration) => migration.name.length))
  const database = options.db.startsWith('sqlite:') ? options.db : `${options.db}, schema ${options.schema}`
  const lines = [`restmint: ${options.migrations}/ on ${database}:`]
  for (const migration of state.applied) lines.push(`  ${migration.name.padEnd(width)}  applied ${migration.appliedAt}`)
  for (const [index, migration] of state.pending.entries()) {
    const adoption =
      index === 0 && state.adoptable ? ' (the tables match its snapshot: apply records it without running it)' : ''
    lines.push(`  ${migration.name.padEnd(width)}  pending${adoption}`)
  }
  if (state.applied.length + state.pending.length === 0) lines.push('  (no migrations)')
  if (missingFile !== null) lines.push(`restmint: no database at ${missingFile}; every migration is pending`)
  io.stdout(redactCredentials(`${lines.join('\n')}\n`))
  if (state.problems.length > 0) {
    io.stderr(`restmint: the database and ${options.migrations}/ disagree:\n`)
    for (const problem of state.problems) io.stderr(redactCredentials(asGiven(`- ${problem}\n`)))
    return 1
  }
  if (state.drift.length > 0) {
    io.stderr(redactCredentials(asGiven(`restmint: ${state.drift.join('\n')}\n`)))
    return 1
  }
  if (state.pending.length === 0) {
    io.stdout('restmint: up to date\n')
    return 0
  }
  io.stdout(redactCredentials(`restmint: ${state.pending.length} pending; apply with ${formatApplyCommand(options)}\n`))
  return 1
}

/** The file of an `sqlite:<file>` URL when no such file exists (opening it would create it); null otherwise. */
function missingSqliteFile(db: string): string | null {
  const file = db.startsWith('sqlite:') && db !== 'sqlite::memory:' ? db.slice('sqlite:'.length) : ''
  return file === '' || existsSync(file) ? null : file
}

/** A database that does not exist yet: nothing applied, every migration pending. */
function neverMigrated(pending: MigrationState['pending']): MigrationState {
  return { tracked: false, applied: [], pending, problems: [], adoptable: false, drift: [] }
}
