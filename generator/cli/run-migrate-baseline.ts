import { join, resolve } from 'node:path'
import { compareWithSnapshot } from '../../runtime/migrations/read-migration-state.js'
import { openDialect } from '../../runtime/storage/create-storage.js'
import type { StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import { UserError } from '../diagnostics/diagnostic.js'
import { withOutputLock } from '../emit/output-lock.js'
import { loadProject } from '../load-project.js'
import { buildStorageModel } from '../migrate/storage-model.js'
import { planMigration } from '../migrate/plan-migration.js'
import { readLatestSnapshot } from '../migrate/read-latest-snapshot.js'
import { renderMigrationFiles } from '../migrate/render-migration-sql.js'
import { removeStagedMigrations, writeMigration } from '../migrate/write-migration.js'
import type { CliIo } from './cli-io.js'
import { formatApplyCommand, locateMigrations, requireSchemaName, type MigrationOptions } from './migration-options.js'
import { reportDiagnostics } from './report-diagnostics.js'
import { withDatabaseErrors } from './with-database-errors.js'

export interface MigrateBaselineOptions extends MigrationOptions {
  readonly manifest: string
  /** The manifest the database's tables were created from; default `manifest`. */
  readonly from?: string
}

const FIRST_MIGRATION = '0001_init'

/**
 * `restmint migrate baseline`: for a project whose database `serve` created
 * without migrations, writes `0001_init` as the schema that database holds,
 * once its tables are found to be exactly what `--from` (the manifest they were
 * created from) describes; `migrate apply` then adopts it without running it,
 * and `migrate create` writes the manifest's later changes as 0002. Reads the
 * database only. Refuses when migrations exist, and lists the differences
 * when the database holds something else.
 */
export async function runMigrateBaseline(options: MigrateBaselineOptions, io: CliIo): Promise<number> {
  requireSchemaName(options.schema)
  const from = options.from ?? options.manifest
  const project = await loadProject(io.cwd, from)
  const validated = await project.validated()
  const diagnostics = { diagnostics: validated.diagnostics, sources: project.sources, files: null }
  if (reportDiagnostics(diagnostics, from, io, true) || validated.manifest === null) return 1
  const { snapshot } = buildStorageModel(await project.model())
  const { directory } = locateMigrations(options, io.cwd)
  const existing = readLatestSnapshot(directory)?.migrations ?? []
  if (existing.length > 0) {
    throw new UserError(
      `${join(options.migrations, existing[0]!.name)} exists: baseline records the first migration of a project ` +
        `that has none. Apply the migrations with ${formatApplyCommand(options)}. Nothing was written.`,
    )
  }
  const differences = await withDatabaseErrors(options.db, async () => {
    const dialect = openDialect(options.db, { schema: options.schema })
    try {
      return await dialect.driver.transaction(async (executor) => {
        const tables = new Map((await dialect.readExistingTables(executor)).map((table) => [table.name, table]))
        if (!snapshot.tables.some((table) => tables.has(table.name))) return null
        return compareWithSnapshot(dialect, tables, snapshot)
      })
    } finally {
      await dialect.close()
    }
  })
  if (differences === null) {
    throw new UserError(
      `the database holds none of the tables of ${from}: there is no schema to record. ` +
        `Create the first migration with restmint migrate create, then apply it with ${formatApplyCommand(options)}. ` +
        `Nothing was written.`,
    )
  }
  if (differences.length > 0) {
    throw new UserError(
      `the database's tables differ from what ${from} creates:\n` +
        differences.map((difference) => `  - ${difference}`).join('\n') +
        `\nIf the database was created from an earlier manifest, name that one, e.g. ` +
        `git show HEAD~1:${options.manifest} > previous.yaml, then --from previous.yaml. Nothing was written.`,
    )
  }
  return writeBaseline(resolve(io.cwd, options.migrations), snapshot, options, from, io)
}

function writeBaseline(
  migrationsDir: string,
  snapshot: StorageSnapshot,
  options: MigrateBaselineOptions,
  from: string,
  io: CliIo,
): number {
  const holder = { command: 'restmint migrate baseline', directory: options.migrations }
  return withOutputLock(
    migrationsDir,
    () => {
      removeStagedMigrations(migrationsDir)
      // Another run may have written the first migration since the check above: the lock makes this one final.
      const raced = readLatestSnapshot(migrationsDir)?.migrations[0]
      if (raced !== undefined) {
        throw new UserError(`${join(options.migrations, raced.name)} appeared meanwhile. Nothing was written.`)
      }
      const { plan } = planMigration({
        before: { restmint_snapshot: 1, tables: [] },
        after: snapshot,
        origins: new Map(),
        backfills: [],
        allowDataLoss: false,
      })
      writeMigration(migrationsDir, FIRST_MIGRATION, renderMigrationFiles(plan!))
      io.stdout(
        `Created ${join(options.migrations, FIRST_MIGRATION)}/ from ${from}: the schema the database holds ` +
          `(${snapshot.tables.length} ${snapshot.tables.length === 1 ? 'table' : 'tables'}). ${formatApplyCommand(options)} records it as applied without ` +
          `running it; then restmint migrate create writes what ${options.manifest} changed since.\n`,
      )
      return 0
    },
    holder,
  )
}
