import { UserError } from '../diagnostics/diagnostic.js'

// Errors whose message already says what to fix: the database disagrees with the manifest or the migrations, a --db URL
// is bad, or the server's other settings cannot work (API keys, Redis).
const USER_FACING_ERRORS = new Set([
  'SchemaMismatchError',
  'MigrationError',
  'MigrationDirectoryError',
  'StorageUrlError',
  'ServerConfigurationError',
])

// The database did not let us in: unreachable, refused, or no connection within the pool timeout.
const CONNECTION_ERRORS = new Set(['StorageConnectionError', 'StorageBusyError'])

/**
 * Runs `work` against the database `db`, turning what a user can fix into
 * UserError: the errors above (their message passed through `rewrite`), and
 * driver or system errors (unreachable server, refused login, unreadable
 * file), which concern the database, not restmint.
 */
export async function withDatabaseErrors<T>(
  db: string,
  work: () => Promise<T>,
  rewrite: (message: string) => string = (message) => message,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof Error)) throw error
    if (USER_FACING_ERRORS.has(error.name)) throw new UserError(rewrite(error.message))
    if (CONNECTION_ERRORS.has(error.name) || (error as NodeJS.ErrnoException).code)
      throw new UserError(`cannot open the database "${db}": ${error.message}`)
    throw error
  }
}
