import { readdirSync, readlinkSync, statSync, type Dirent } from 'node:fs'
import { join } from 'node:path'
import { MIGRATION_DIRECTORY } from './migration-files.js'

/** One migration directory: `0002_add_posts_summary`. */
export interface MigrationEntry {
  /** The 4-digit number: `0002`. */
  readonly id: string
  /** The directory name: `0002_add_posts_summary`. */
  readonly name: string
  /** Its path. */
  readonly directory: string
}

/** A migrations directory whose layout restmint cannot read; the message says which entry and how to fix it. */
export class MigrationDirectoryError extends Error {
  override readonly name = 'MigrationDirectoryError'
}

/**
 * The migrations in `directory`, in order, or null when the directory does
 * not exist. Plain files (a README) and dot-directories are ignored; a
 * symbolic link to a directory counts as one; a subdirectory whose name is
 * not `NNNN_slug`, or two sharing a number (two branches each created one),
 * is an error rather than a migration silently skipped or applied twice.
 */
export function listMigrations(directory: string): MigrationEntry[] | null {
  let names: string[]
  try {
    names = readdirSync(directory, { withFileTypes: true })
      // Dot-directories are not migrations: `migrate create` builds the next one under a dot-name.
      .filter((entry) => !entry.name.startsWith('.') && isDirectory(directory, entry))
      .map((entry) => entry.name)
  } catch (error) {
    if (error instanceof MigrationDirectoryError) throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    // Not the database's fault, though migrate apply opens one first: name the directory.
    throw new MigrationDirectoryError(
      `cannot read the migrations directory ${directory} (${(error as Error).message}); ` +
        `pass the directory that holds the migrations with --migrations`,
    )
  }
  const entries: MigrationEntry[] = []
  for (const name of names.sort()) {
    const match = MIGRATION_DIRECTORY.exec(name)
    if (match === null) {
      throw new MigrationDirectoryError(
        `${join(directory, name)}: not a migration directory name; ` +
          `name it NNNN_slug (4 digits, then lower-case words joined by _), e.g. 0002_add_posts_summary, or move it out of ${directory}`,
      )
    }
    const previous = entries.at(-1)
    if (previous !== undefined && previous.id === match[1]) {
      throw new MigrationDirectoryError(
        `${directory}: two migrations are numbered ${previous.id} (${previous.name}, ${name}); ` +
          `renumber the one created later after the last migration and check its SQL still applies`,
      )
    }
    entries.push({ id: match[1]!, name, directory: join(directory, name) })
  }
  return entries
}

/**
 * A directory, or a symbolic link to one (a migration shared from elsewhere):
 * skipping the link would skip its migration. A link whose target is gone is
 * an error when its name is a migration's.
 */
function isDirectory(directory: string, entry: Dirent): boolean {
  if (!entry.isSymbolicLink()) return entry.isDirectory()
  const path = join(directory, entry.name)
  try {
    return statSync(path).isDirectory()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    if (!MIGRATION_DIRECTORY.test(entry.name)) return false
    throw new MigrationDirectoryError(
      `${path} is a symbolic link to ${readlinkSync(path)}, which does not exist; restore what it points to, or remove the link`,
    )
  }
}
