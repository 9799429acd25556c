/**
 * Migrations that cannot be applied as they stand: the directory and the
 * database disagree (a changed or missing migration, tables that differ from
 * the first snapshot), or a migration's SQL failed and was rolled back. The
 * message says which migration, which file, and how to resolve it.
 */
export class MigrationError extends Error {
  override readonly name = 'MigrationError'
}
