import { relative, resolve } from 'node:path'
import { diffSnapshots } from './diff-snapshots.js'
import { readLatestSnapshot } from './read-latest-snapshot.js'
import { summarizeChanges } from './describe-changes.js'
import type { StorageModel } from './storage-model.js'

/** A storage model against the snapshot the migrations lead to. */
export interface MigrationComparison {
  /** `migrations/0002_x/snapshot.json`, or `migrations/ (no migration yet)`. */
  readonly snapshotFile: string
  /** One phrase per table that differs (`posts: add views`); empty when they match. */
  readonly changes: readonly string[]
}

/**
 * Compares the storage model `load` gives with the latest migration's
 * snapshot in `migrationsDir`; null, without calling `load`, when the
 * directory does not exist (the project has no migrations).
 */
export async function compareWithLatestMigration(
  migrationsDir: string,
  cwd: string,
  load: () => Promise<StorageModel>,
): Promise<MigrationComparison | null> {
  const latest = readLatestSnapshot(resolve(cwd, migrationsDir))
  if (latest === null) return null
  const storage = await load()
  const diffs = diffSnapshots(latest.snapshot, storage.snapshot, storage.origins)
  return {
    snapshotFile: latest.file === null ? `${migrationsDir}/ (no migration yet)` : relative(cwd, latest.file),
    changes: summarizeChanges(diffs),
  }
}

/** What a comparison with changes says: the migration is missing, and the commands that make and apply it. */
export function describeMissingMigration(
  comparison: MigrationComparison,
  manifestFile: string,
  migrationsDir: string,
): string {
  return (
    `the manifest's storage model differs from ${comparison.snapshotFile}: ${comparison.changes.join('; ')}; ` +
    `run \`restmint migrate create --manifest ${manifestFile} --migrations ${migrationsDir}\`, review the migration, ` +
    `then apply it (\`restmint migrate apply\`, or \`restmint serve --migrate\`)`
  )
}
