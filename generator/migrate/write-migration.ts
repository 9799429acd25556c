import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { killPoint } from '../emit/kill-point.js'

/** The prefix of the directory a migration is built in before it is renamed into place. */
const STAGING_PREFIX = '.restmint-new-'

/**
 * Writes migration `name` (`0002_add_posts_summary`) with `files` into
 * `migrationsDir` all at once: the files are written and flushed in a
 * dot-directory beside it (which listMigrations skips), and that directory is
 * renamed into place, so after kill -9 the migration is either absent or
 * whole. Call it holding the migrations directory's lock. Each step ends
 * at a killPoint, where tests kill it.
 */
export function writeMigration(migrationsDir: string, name: string, files: ReadonlyMap<string, string>): string {
  const staging = join(migrationsDir, `${STAGING_PREFIX}${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging)
  killPoint()
  for (const [file, contents] of files) {
    writeFileSync(join(staging, file), contents, { flag: 'wx' })
    flush(join(staging, file))
    killPoint()
  }
  flush(staging)
  const target = join(migrationsDir, name)
  // Fails (ENOTEMPTY/EEXIST) rather than replace a migration that is already there.
  renameSync(staging, target)
  flush(migrationsDir)
  killPoint()
  return target
}

/** Removes what a killed `migrate create` left: its staging directories are never part of a migration. */
export function removeStagedMigrations(migrationsDir: string): void {
  for (const entry of readdirSync(migrationsDir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name.startsWith(STAGING_PREFIX)) {
      rmSync(join(migrationsDir, entry.name), { recursive: true, force: true })
    }
  }
}

function flush(path: string): void {
  const descriptor = openSync(path, 'r')
  try {
    fsyncSync(descriptor)
  } finally {
    closeSync(descriptor)
  }
}
