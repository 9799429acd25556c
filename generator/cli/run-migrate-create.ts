import { join, resolve } from 'node:path'
import type { MigrationEntry } from '../../runtime/migrations/list-migrations.js'
import { UserError, type Diagnostic } from '../diagnostics/diagnostic.js'
import { withOutputLock } from '../emit/output-lock.js'
import { nameMigration, summarizeChanges } from '../migrate/describe-changes.js'
import { diffSnapshots } from '../migrate/diff-snapshots.js'
import { listSharedUniqueValues } from '../migrate/list-shared-unique-values.js'
import { loadProject } from '../load-project.js'
import { buildStorageModel, locateMigrationProblems } from '../migrate/storage-model.js'
import { parseBackfills } from '../migrate/parse-backfills.js'
import { planMigration } from '../migrate/plan-migration.js'
import { readLatestSnapshot } from '../migrate/read-latest-snapshot.js'
import { renderMigrationFiles } from '../migrate/render-migration-sql.js'
import { removeStagedMigrations, writeMigration } from '../migrate/write-migration.js'
import type { CliIo } from './cli-io.js'
import { reportDiagnostics } from './report-diagnostics.js'

const MAX_MIGRATION_NUMBER = 9999

/** The way out for a database that `serve` created before this first migration, from an earlier manifest. */
const FIRST_MIGRATION_NOTE = (directory: string) =>
  `  note: ${directory} creates every table. A database whose tables serve created without migrations ` +
  `needs its own schema as the first migration instead: remove ${directory}/, run restmint migrate baseline ` +
  `--db <url> --from <the manifest it was created from>, then restmint migrate create again.\n`

export interface MigrateCreateOptions {
  readonly manifest: string
  readonly migrations: string
  readonly name?: string
  readonly backfill: readonly string[]
  readonly allowDataLoss?: boolean
}

/**
 * `restmint migrate create`: plans the migration from the latest snapshot to
 * the manifest and writes it as `NNNN_<slug>/` (SQL per dialect and the new
 * snapshot), or says there is nothing to do. Holds the migrations directory's
 * lock throughout, so two runs never take the same number.
 */
export async function runMigrateCreate(options: MigrateCreateOptions, io: CliIo): Promise<number> {
  const project = await loadProject(io.cwd, options.manifest)
  const validated = await project.validated()
  const report = (diagnostics: readonly Diagnostic[]) =>
    reportDiagnostics({ diagnostics, sources: project.sources, files: null }, options.manifest, io, true)
  if (report(validated.diagnostics) || validated.manifest === null) return 1
  const { snapshot: after, origins } = buildStorageModel(await project.model())
  const { backfills, problems: badBackfills } = parseBackfills(options.backfill, after, origins)
  if (badBackfills.length > 0) throw new UserError(`${badBackfills.join('\n')}\nNothing was written.`)
  const migrationsDir = resolve(io.cwd, options.migrations)
  const holder = { command: 'restmint migrate create', directory: options.migrations }
  return withOutputLock(
    migrationsDir,
    () => {
      removeStagedMigrations(migrationsDir)
      const latest = readLatestSnapshot(migrationsDir)!
      const { plan, problems } = planMigration({
        before: latest.snapshot,
        after,
        origins,
        backfills,
        allowDataLoss: options.allowDataLoss === true,
      })
      if (report(locateMigrationProblems(validated.loaded, problems)) || plan === null) return 1
      if (plan.changes.length === 0) {
        io.stdout(`${options.migrations}/ is up to date with ${options.manifest}: nothing to migrate.\n`)
        return 0
      }
      const diffs = diffSnapshots(plan.before, after, origins)
      const number = nextMigrationNumber(latest.migrations.at(-1), options.migrations)
      const name = `${number}_${options.name ?? nameMigration(diffs, latest.migrations.length === 0)}`
      writeMigration(migrationsDir, name, renderMigrationFiles(plan))
      io.stdout(`Created ${join(options.migrations, name)}/ (review it, then commit it):\n`)
      for (const line of summarizeChanges(diffs)) io.stdout(`  ${line}\n`)
      for (const line of plan.dataLoss) io.stdout(`  data loss: ${line}\n`)
      for (const line of listSharedUniqueValues(plan)) io.stdout(`  warning: ${line}\n`)
      if (latest.migrations.length === 0) io.stdout(FIRST_MIGRATION_NOTE(join(options.migrations, name)))
      return 0
    },
    holder,
  )
}

/** The number after `last`'s, in the 4 digits listMigrations reads: a 10000th migration would not be read back. */
function nextMigrationNumber(last: MigrationEntry | undefined, migrationsDir: string): string {
  const next = Number(last?.id ?? '0') + 1
  if (next <= MAX_MIGRATION_NUMBER) return String(next).padStart(4, '0')
  throw new UserError(
    `${join(migrationsDir, last!.name)} is numbered ${last!.id}, so the next migration would be ${next}, ` +
      `but a migration number has 4 digits; if no database has applied ${last!.name} yet, renumber it right after ` +
      `the migration before it, then run restmint migrate create again. Nothing was written.`,
  )
}
