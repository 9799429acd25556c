import { resolve } from 'node:path'
import { UserError } from '../diagnostics/diagnostic.js'

/** The options of `migrate apply`, `migrate status` and `serve` that name a database and its migrations. */
export interface MigrationOptions {
  readonly db: string
  readonly schema: string
  /** The migrations directory, as given (relative to the working directory). */
  readonly migrations: string
}

const DEFAULT_SCHEMA = 'public'
const DEFAULT_MIGRATIONS = 'migrations'

/** Refuses an empty `--schema` (or DATABASE_SCHEMA set to nothing): PostgreSQL has no schema without a name. */
export function requireSchemaName(schema: string): void {
  if (schema === '') throw new UserError('--schema must name a PostgreSQL schema, e.g. --schema public')
}

/**
 * The migrations directory resolved against `cwd`, as the runtime reads it,
 * and `asGiven`, which writes every path under it in a message as the
 * options gave it (`migrations/0002_x/sqlite.sql`, not an absolute path).
 */
export function locateMigrations(
  options: MigrationOptions,
  cwd: string,
): { readonly directory: string; asGiven(text: string): string } {
  const directory = resolve(cwd, options.migrations)
  const given = options.migrations.replace(/(.)\/+$/, '$1')
  return { directory, asGiven: (text) => text.replaceAll(directory, given) }
}

/** The `restmint migrate apply` command for these options, defaults left out, ready to paste into a shell. */
export function formatApplyCommand(options: MigrationOptions): string {
  const args = ['restmint', 'migrate', 'apply', '--db', options.db]
  if (!options.db.startsWith('sqlite:') && options.schema !== DEFAULT_SCHEMA) args.push('--schema', options.schema)
  if (options.migrations !== DEFAULT_MIGRATIONS) args.push('--migrations', options.migrations)
  return args.map(quoteForShell).join(' ')
}

function quoteForShell(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`
}
