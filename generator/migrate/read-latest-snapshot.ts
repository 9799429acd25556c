import { join } from 'node:path'
import {
  listMigrations,
  MigrationDirectoryError,
  type MigrationEntry,
} from '../../runtime/migrations/list-migrations.js'
import { SNAPSHOT_FILE } from '../../runtime/migrations/migration-files.js'
import { MigrationError } from '../../runtime/migrations/migration-error.js'
import { readSnapshotFile } from '../../runtime/migrations/read-snapshot-file.js'
import type { StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import { UserError } from '../diagnostics/diagnostic.js'

export interface LatestSnapshot {
  /** Every migration, in order. */
  readonly migrations: readonly MigrationEntry[]
  /** The last one's snapshot.json; no tables when there is no migration yet. */
  readonly snapshot: StorageSnapshot
  /** Where it was read from (`migrations/0002_x/snapshot.json`), null when there is no migration. */
  readonly file: string | null
}

/** The state the migrations in `migrationsDir` lead to; null when the directory does not exist. */
export function readLatestSnapshot(migrationsDir: string): LatestSnapshot | null {
  let migrations: MigrationEntry[] | null
  try {
    migrations = listMigrations(migrationsDir)
  } catch (error) {
    if (error instanceof MigrationDirectoryError) throw new UserError(error.message)
    throw error
  }
  if (migrations === null) return null
  const latest = migrations.at(-1)
  if (latest === undefined) return { migrations, snapshot: { restmint_snapshot: 1, tables: [] }, file: null }
  const file = join(latest.directory, SNAPSHOT_FILE)
  try {
    return { migrations, snapshot: readSnapshotFile(file), file }
  } catch (error) {
    if (error instanceof MigrationError) throw new UserError(error.message)
    throw error
  }
}
