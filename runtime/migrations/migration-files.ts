/**
 * The layout of a migrations directory, shared by `migrate create` (which
 * writes it) and `migrate apply`/`status`/`serve` (which read it):
 *
 *   migrations/0001_init/sqlite.sql      statements for SQLite
 *   migrations/0001_init/postgres.sql    statements for PostgreSQL
 *   migrations/0001_init/snapshot.json   the StorageSnapshot after this migration
 *
 * A migration's id is its 4-digit number, its name the directory name. The
 * SQL files hold plain statements (no BEGIN/COMMIT): `migrate apply` runs each
 * file in one transaction, and records its checksum (SHA-256 of the file's
 * bytes, CRLF read as LF, without a byte order mark) in the migrations table.
 */
export const MIGRATION_DIRECTORY = /^(\d{4})_([a-z0-9]+(?:_[a-z0-9]+)*)$/
export const MIGRATION_SQL_FILES = { sqlite: 'sqlite.sql', postgres: 'postgres.sql' } as const
export const SNAPSHOT_FILE = 'snapshot.json'
export const MIGRATIONS_TABLE = 'restmint_migrations'
/** Lines at the top of a SQL file that start with this name what the migration destroys; `migrate apply` prints them. */
export const DATA_LOSS_PREFIX = '-- DATA LOSS: '

export type MigrationDialect = keyof typeof MIGRATION_SQL_FILES
