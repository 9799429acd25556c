import { readMigrationState, type MigrationState } from './read-migration-state.js'
import { withMigrationTarget, type MigrationTarget } from './with-migration-target.js'

/**
 * Where the database stands against the migrations directory: what is
 * applied, what is pending, and what disagrees. Reads only; creates nothing
 * (but an SQLite file that does not exist yet, as opening one does).
 */
export function readMigrationStatus(target: MigrationTarget): Promise<MigrationState> {
  return withMigrationTarget(target, (dialect, files) =>
    dialect.driver.transaction((executor) => readMigrationState(dialect, executor, files)),
  )
}
