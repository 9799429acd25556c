import { join } from 'node:path'
import { listTableIndexes } from '../storage/build-create-statements.js'
import { findSchemaDifferences } from '../storage/find-schema-differences.js'
import type { ExistingTable, SqlExecutor, StorageDialect } from '../storage/storage-dialect.js'
import { readAppliedMigrations, type AppliedMigration } from './applied-migrations.js'
import { MIGRATIONS_TABLE, SNAPSHOT_FILE } from './migration-files.js'
import type { MigrationFile } from './read-migration-files.js'
import { readSnapshotFile } from './read-snapshot-file.js'
import type { SnapshotTable, StorageSnapshot } from './storage-snapshot.js'

/** Where a database stands against a migrations directory. */
export interface MigrationState {
  /** The migrations table exists. */
  readonly tracked: boolean
  /** What the migrations table records, in id order (empty when it does not exist). */
  readonly applied: readonly AppliedMigration[]
  /** Migrations the table does not record, in order. */
  readonly pending: readonly MigrationFile[]
  /**
   * Why no migration may run: the directory and the database disagree. Each
   * says where, what, and how to resolve it.
   */
  readonly problems: readonly string[]
  /**
   * The database records no migration (no migrations table, or an empty
   * one) but holds the first migration's tables as its snapshot describes
   * them (prepare() created them before the project had migrations): the
   * first pending migration is to be recorded as applied without running.
   */
  readonly adoptable: boolean
  /**
   * How the tables differ from the snapshot of the last applied migration (a
   * change made by hand), each difference a line; empty when they match or
   * nothing is applied yet.
   */
  readonly drift: readonly string[]
}

/** Reads the migrations table and the tables through `executor`, and compares them with `files`. */
export async function readMigrationState(
  dialect: StorageDialect,
  executor: SqlExecutor,
  files: readonly MigrationFile[],
): Promise<MigrationState> {
  const tables = await dialect.readExistingTables(executor)
  const tracked = tables.some((table) => table.name === MIGRATIONS_TABLE)
  const applied = tracked ? await readAppliedMigrations(dialect, executor) : []
  const recorded = new Map(applied.map((migration) => [migration.id, migration]))
  const pending = files.filter((file) => !recorded.has(file.id))
  const problems = [...findChangedMigrations(files, applied), ...findSkippedMigrations(pending, applied)]
  const existing = new Map(tables.map((table) => [table.name, table]))
  const first = files[0]
  // An empty migrations table (made by hand, or by a tool that failed before recording) records nothing either.
  if (applied.length > 0 || first === undefined) {
    const drift = problems.length === 0 ? findDrift(dialect, existing, files, applied) : []
    return { tracked, applied, pending, problems, adoptable: false, drift }
  }

  const snapshotPath = join(first.directory, SNAPSHOT_FILE)
  const snapshot = readSnapshotFile(snapshotPath)
  const notMigrated = { tracked, applied, pending, problems, drift: [] }
  // Tables the first migration does not create are another application's: an empty database as far as restmint goes.
  if (!snapshot.tables.some((table) => existing.has(table.name))) return { ...notMigrated, adoptable: false }
  const differences = compareWithSnapshot(dialect, existing, snapshot)
  if (differences.length === 0) return { ...notMigrated, adoptable: true }
  problems.push(
    `the database has tables but records no migration (no ${MIGRATIONS_TABLE} table, or an empty one), ` +
      `so it was created before migrations, ` +
      `and its tables differ from the first migration's snapshot (${snapshotPath}):\n` +
      differences.map((difference) => `  - ${difference}`).join('\n') +
      `\n  Change the tables until they match, so that ${first.name} can be recorded as applied without running; ` +
      `or apply the migrations to an empty database and copy the rows over.`,
  )
  return { ...notMigrated, adoptable: false }
}

/** The tables against the snapshot of the last applied migration: what changed outside migrations. */
function findDrift(
  dialect: StorageDialect,
  existing: ReadonlyMap<string, ExistingTable>,
  files: readonly MigrationFile[],
  applied: readonly AppliedMigration[],
): string[] {
  const last = applied.at(-1)
  const file = files.find((candidate) => candidate.id === last?.id)
  if (file === undefined) return []
  const snapshotPath = join(file.directory, SNAPSHOT_FILE)
  const differences = compareWithSnapshot(dialect, existing, readSnapshotFile(snapshotPath))
  if (differences.length === 0) return []
  return [
    `the database differs from ${snapshotPath}, where its applied migrations lead (a change made by hand?):`,
    ...differences.map((difference) => `  - ${difference}`),
    `  Undo the change (restmint writes nothing over it), or point --db at another database.`,
  ]
}

/** Each difference between the snapshot's tables and the database's (tables the snapshot lacks are not restmint's). */
export function compareWithSnapshot(
  dialect: StorageDialect,
  existing: ReadonlyMap<string, ExistingTable>,
  snapshot: StorageSnapshot,
): string[] {
  return snapshot.tables.flatMap((table) => {
    const found = existing.get(table.name)
    if (found === undefined) return [`table "${table.name}" is missing`]
    return [...findSchemaDifferences(table, found, dialect.columnTypes), ...findIndexDifferences(table, found)]
  })
}

/**
 * The indexes the snapshot's migrations create (one per foreign key column,
 * then the declared ones) that the table lacks, and those it has that none
 * creates, by name: restmint names every index it makes. Only with
 * migrations: without them, prepare() creates a missing index on start.
 */
function findIndexDifferences(table: SnapshotTable, existing: ExistingTable): string[] {
  const expected = listTableIndexes({
    name: table.name,
    columns: table.columns,
    indexes: table.indexes.map((columns) => ({ columns })),
  })
  const found = new Set(existing.indexes)
  const expectedNames = new Set(expected.map((index) => index.name))
  return [
    ...expected
      .filter((index) => !found.has(index.name))
      .map(
        (index) =>
          `table "${table.name}": index "${index.name}" on (${index.columns.map((column) => column.name).join(', ')}) ` +
          `is missing; create it again as the migration that made it did`,
      ),
    ...existing.indexes
      .filter((name) => !expectedNames.has(name))
      .map(
        (name) =>
          `table "${table.name}": index "${name}" exists in the database, but no migration creates it; ` +
          `drop it, or declare the sort or filter it serves in the manifest and create a migration`,
      ),
  ]
}

/** Applied migrations whose file changed, was renamed, or is gone. */
function findChangedMigrations(files: readonly MigrationFile[], applied: readonly AppliedMigration[]): string[] {
  const byId = new Map(files.map((file) => [file.id, file]))
  return applied.flatMap((migration) => {
    const file = byId.get(migration.id)
    const when = `applied ${migration.appliedAt}`
    if (file === undefined) {
      return [
        `migration ${migration.name} (${when}) is not in this checkout's migrations directory: ` +
          `the database is ahead of this checkout; update the checkout, or point --db at another database`,
      ]
    }
    if (file.name !== migration.name) {
      return [
        `${file.directory} was applied as ${migration.name} (${when}); ` +
          `rename the directory back to ${migration.name}, and give a new migration the next free number`,
      ]
    }
    if (file.checksum !== migration.checksum) {
      return [
        `${file.path} changed since it was applied (${when}): checksum recorded ${migration.checksum}, ` +
          `file now ${file.checksum}; restore the file as it was applied (e.g. git checkout -- ${file.path}). ` +
          `To change the schema further, create a new migration with restmint migrate create instead`,
      ]
    }
    return []
  })
}

/** Pending migrations numbered before an applied one: merged from another branch after later ones ran. */
function findSkippedMigrations(pending: readonly MigrationFile[], applied: readonly AppliedMigration[]): string[] {
  const last = applied.at(-1)
  if (last === undefined) return []
  return pending
    .filter((file) => file.id < last.id)
    .map(
      (file) =>
        `${file.name} is not applied, but ${last.name}, numbered after it, is: ` +
        `renumber ${file.directory} after the last migration and check its SQL still applies on top of it`,
    )
}
