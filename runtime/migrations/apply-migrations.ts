import { createMigrationsTable, recordAppliedMigration } from './applied-migrations.js'
import { findDuplicateValues } from './find-duplicate-values.js'
import { findTransactionControl } from './find-transaction-control.js'
import { DATA_LOSS_PREFIX } from './migration-files.js'
import { MigrationError } from './migration-error.js'
import type { MigrationFile } from './read-migration-files.js'
import { readMigrationState } from './read-migration-state.js'
import { withMigrationTarget, type MigrationTarget } from './with-migration-target.js'

export interface ApplyMigrationsOptions extends MigrationTarget {
  /** Hears a line (without newline) per migration applied or adopted, and each line of its DATA LOSS header. */
  readonly log?: (line: string) => void
}

/** What one applyMigrations run did; another instance may have applied the rest. */
export interface AppliedMigrations {
  /** The first migration, recorded without running: the database already had its tables. */
  readonly adopted: string | null
  /** Names of the migrations this run applied, in order. */
  readonly applied: readonly string[]
}

/**
 * Applies the pending migrations in order, each in one transaction that takes
 * the namespace's lock (StorageDialect.lockNamespace), re-reads what is
 * applied (another instance may have applied it meanwhile), runs the
 * dialect's SQL file, and records it in the migrations table: a crash leaves
 * the database before or after each migration, never between. Instances
 * running at once apply each migration once; the others wait, then find it
 * recorded.
 *
 * Refuses (MigrationError) before applying anything when an applied
 * migration's file changed or is gone, when a database created before
 * migrations differs from the first migration's snapshot, or when the tables
 * differ from the last applied migration's snapshot (changed by hand;
 * checked again after the last migration runs, so an edited SQL file that
 * does not lead to its snapshot is named too). A database created before
 * migrations whose tables match the first snapshot is adopted: the first
 * migration is recorded without running. A
 * migration whose SQL fails rolls back, and the error names its file and the
 * database's message; one that would begin or end a transaction itself
 * (findTransactionControl) is refused before it runs.
 */
export function applyMigrations(options: ApplyMigrationsOptions): Promise<AppliedMigrations> {
  const log = options.log ?? (() => {})
  return withMigrationTarget(options, async (dialect, files) => {
    let adopted: string | null = null
    const applied: string[] = []
    for (;;) {
      let running: MigrationFile | undefined
      const step = await dialect.driver
        .scriptTransaction(async (executor) => {
          await dialect.lockNamespace(executor)
          await dialect.createNamespace(executor)
          const state = await readMigrationState(dialect, executor, files)
          if (state.problems.length > 0) {
            throw new MigrationError(`refusing to apply migrations:\n${state.problems.map((p) => `- ${p}`).join('\n')}`)
          }
          if (state.drift.length > 0) throw driftError(state.drift, applied)
          const next = state.pending[0]
          if (next === undefined) return undefined
          if (!state.tracked) await createMigrationsTable(dialect, executor)
          if (!state.adoptable) {
            refuseTransactionControl(next)
            log(`applying ${next.name} (${next.path})`)
            for (const line of listDataLoss(next.sql)) log(`  ${line}`)
            running = next
            await dialect.runScript(executor, next.sql)
          }
          await recordAppliedMigration(dialect, executor, next)
          return { migration: next, adopted: state.adoptable }
        })
        .catch(async (error: unknown) => {
          if (running === undefined || error instanceof MigrationError) throw error
          throw describeFailure(running, error, await findDuplicateValues(dialect, running, error))
        })
      if (step === undefined) return { adopted, applied }
      if (step.adopted) {
        adopted = step.migration.name
        log(`adopted ${adopted}: the database's tables match its snapshot; recorded as applied without running it`)
      } else {
        applied.push(step.migration.name)
        log(`applied ${step.migration.name}`)
      }
    }
  })
}

/**
 * Refuses a file that begins or ends a transaction itself: a COMMIT in it
 * would leave the rest outside the one applyMigrations runs it in.
 */
function refuseTransactionControl(file: MigrationFile): void {
  const control = findTransactionControl(file.sql)
  if (control === null) return
  throw new MigrationError(
    `${file.path}:${control.line}:${control.column}: ${control.keyword} controls the transaction that migrate apply ` +
      `runs ${file.name} in (a COMMIT would leave what follows it unable to roll back), so ${file.name} was not applied; ` +
      `remove every BEGIN, COMMIT, ROLLBACK and END from the file (it is not applied yet, so it may still change): ` +
      `each migration runs in one transaction of its own.`,
  )
}

/** Tables changed outside migrations: refused before applying, and reported after applying. */
function driftError(drift: readonly string[], applied: readonly string[]): MigrationError {
  const done = applied.length === 0 ? 'nothing applied' : `applied ${applied.join(', ')}, then`
  return new MigrationError(`refusing to apply migrations (${done}): ${drift.join('\n')}`)
}

/** The header lines naming what the migration destroys: DATA_LOSS_PREFIX lines among the comments it starts with. */
function listDataLoss(sql: string): string[] {
  const lines: string[] = []
  for (const line of sql.split('\n')) {
    const trimmed = line.trim()
    if (trimmed !== '' && !trimmed.startsWith('--')) break
    if (trimmed.startsWith(DATA_LOSS_PREFIX.trim())) lines.push(trimmed.slice('-- '.length))
  }
  return lines
}

/**
 * The database's error with the migration, its file and, when the database
 * gives one, the line and column; and the values a unique column would have
 * held twice (findDuplicateValues), which are the rows to fix.
 */
function describeFailure(file: MigrationFile, error: unknown, duplicates: string | null): MigrationError {
  const { message, detail, hint, position } = error as {
    message?: string
    detail?: string
    hint?: string
    position?: string
  }
  let where = file.path
  const offset = Number(position) - 1
  if (offset >= 0) {
    const before = file.sql.slice(0, offset).split('\n')
    where += `:${before.length}:${before.at(-1)!.length + 1}`
  }
  const said = [message ?? String(error), detail, hint].filter((part) => part !== undefined && part !== '').join(' ')
  // serve refuses while the migration is pending, so the fix goes into the file itself, or through a SQL client.
  const fix =
    duplicates === null
      ? `Fix ${file.path} (it is not applied yet, so it may still change), or the data with a SQL client, then apply again.`
      : `The column is to be unique, but ${duplicates}.\n` +
        `Deduplicate first: edit ${file.path} (not applied yet, so it may still change) to make the values ` +
        `distinct before the constraint (e.g. an UPDATE above it), or change the rows with a SQL client; then apply again.`
  return new MigrationError(
    `migration ${file.name} failed and was rolled back (the database is as it was before it): ${where}: ${said}\n` +
      fix,
    { cause: error },
  )
}
