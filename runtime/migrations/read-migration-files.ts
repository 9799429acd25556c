import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { listMigrations, type MigrationEntry } from './list-migrations.js'
import { MIGRATION_SQL_FILES, type MigrationDialect } from './migration-files.js'
import { MigrationError } from './migration-error.js'

/** A migration with the SQL file of one dialect, as `migrate apply` runs and records it. */
export interface MigrationFile extends MigrationEntry {
  /** The dialect's SQL file: `migrations/0002_add_posts_summary/sqlite.sql`. */
  readonly path: string
  readonly sql: string
  /** SHA-256 hex of the file's bytes, CRLF read as LF, without a byte order mark: what the migrations table records. */
  readonly checksum: string
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])

/**
 * The migrations in `directory`, in order, each with `dialect`'s SQL file
 * read. Throws MigrationError when the directory is missing or a migration
 * lacks the file or it is not UTF-8, and MigrationDirectoryError (list-migrations.ts) when a
 * directory is misnamed.
 */
export function readMigrationFiles(directory: string, dialect: MigrationDialect): MigrationFile[] {
  const entries = listMigrations(directory)
  if (entries === null) {
    throw new MigrationError(
      `no migrations directory at ${directory}; create the first migration with restmint migrate create, ` +
        `or pass the directory with --migrations`,
    )
  }
  return entries.map((entry) => {
    const path = join(entry.directory, MIGRATION_SQL_FILES[dialect])
    let bytes: Buffer
    try {
      bytes = readFileSync(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new MigrationError(`cannot read ${path} (${(error as Error).message}); make it a readable file`)
      }
      throw new MigrationError(
        `${path} is missing: migration ${entry.name} has no SQL for ${dialect}; ` +
          `restore it from version control, or recreate the migration with restmint migrate create`,
      )
    }
    // Editors on Windows may save a byte order mark, which PostgreSQL would read as part of the first word.
    const text = bytes.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes
    return { ...entry, path, sql: decodeUtf8(text, path), checksum: checksumOf(text) }
  })
}

/**
 * The file's text, refusing bytes that are not UTF-8 (a file saved as Latin-1,
 * say) rather than running the SQL with U+FFFD in their place: the rows it
 * writes would hold the replacement character.
 */
function decodeUtf8(bytes: Buffer, path: string): string {
  const text = bytes.toString('utf8')
  const reencoded = Buffer.from(text, 'utf8')
  if (reencoded.equals(bytes)) return text
  let offset = 0
  while (bytes[offset] === reencoded[offset]) offset++
  const line = bytes.subarray(0, offset).toString('latin1').split('\n').length
  throw new MigrationError(
    `${path}:${line}: byte 0x${bytes[offset]!.toString(16).padStart(2, '0')} is not UTF-8; ` +
      `save the file as UTF-8 (it is read as UTF-8, whatever the database's encoding)`,
  )
}

/**
 * Line endings and a byte order mark do not count: git's autocrlf checks the
 * files out with CRLF on Windows, and a migration applied from one checkout
 * must not read as changed in another. The bytes are read as latin1 so that any other byte, UTF-8 or
 * not, counts as it is.
 */
function checksumOf(bytes: Buffer): string {
  const normalized = Buffer.from(bytes.toString('latin1').replaceAll('\r\n', '\n'), 'latin1')
  return createHash('sha256').update(normalized).digest('hex')
}
