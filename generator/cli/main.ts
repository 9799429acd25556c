import { inspect } from 'node:util'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { MIGRATION_DIRECTORY } from '../../runtime/migrations/migration-files.js'
import { redactCredentials } from '../../runtime/storage/redact-credentials.js'
import { UserError } from '../diagnostics/diagnostic.js'
import { normalizeMigrationName } from '../migrate/describe-changes.js'
import { processIo, type CliIo } from './cli-io.js'
import type { DevOptions } from './run-dev.js'
import type { InitOptions } from './run-init.js'
import type { MigrationOptions } from './migration-options.js'
import { readOwnPackage } from './read-own-package.js'
import type { MigrateBaselineOptions } from './run-migrate-baseline.js'
import type { MigrateCreateOptions } from './run-migrate-create.js'
import type { PurgeOptions } from './run-purge.js'
import type { PublishOptions } from './run-publish.js'
import type { TokenOptions } from './run-token.js'
import type { runServe } from './run-serve.js'

// Exit codes, documented in README: 0 ok, 1 invalid manifest or stale output, 2 usage error.
const EXIT_OK = 0
const EXIT_FAILED = 1
const EXIT_USAGE = 2

/**
 * Runs the CLI and returns its exit code. `serve` resolves only when the server stops.
 * Each command loads its own modules when it runs: `serve` never pays for the
 * generator's (prettier, handlebars, ajv), nor `generate` for esbuild.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = EXIT_OK
  const manifestOption = () => new Option('-m, --manifest <file>', 'the manifest to read').default('resources.yaml')
  const outOption = () => new Option('-o, --out <dir>', 'the output directory').default('generated')
  const dbOption = () =>
    new Option('--db <url>', 'database: sqlite:<file>, sqlite::memory: or postgres://…')
      .env('DATABASE_URL')
      .default('sqlite:./data/restmint.db')
  const schemaOption = () =>
    new Option('--schema <name>', 'PostgreSQL schema holding the tables (ignored for SQLite)')
      .env('DATABASE_SCHEMA')
      .default('public')
  const migrationsOption = () => new Option('--migrations <dir>', 'the migrations directory').default('migrations')
  const publishedOption = () =>
    new Option('--published <dir>', 'the published contracts directory').default('published')
  const program = new Command('restmint')
    .description('Generate a Fastify API, JSON Schema validators and OpenAPI documents from resources.yaml.')
    .version(readOwnPackage().version, '-V, --version', 'print the restmint version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run restmint --help for usage)')
  program
    .command('init')
    .description('Write a new project that uses restmint: package.json, resources.yaml, src/app.ts, a test, and more.')
    .argument('[dir]', 'the directory to write it in (created when missing)', '.')
    .option(
      '--from <spec>',
      'the restmint dependency to install: a tarball path or a git URL (default: the one this restmint was installed from)',
    )
    .option(
      '--force',
      "write into a directory that is not empty (the project's files are replaced; an existing package.json keeps " +
        "its own entries and gains the scaffold's)",
    )
    .action(async (directory: string, options: Omit<InitOptions, 'directory'>) => {
      exitCode = (await import('./run-init.js')).runInit({ ...options, directory }, io)
    })
  program
    .command('validate')
    .description('Check the manifest; exit 0 when valid, 1 when not (every problem is listed).')
    .addOption(manifestOption())
    .action(async (options: { manifest: string }) => {
      exitCode = await (await import('./run-validate.js')).runValidate(options.manifest, io)
    })
  program
    .command('generate')
    .description('Write the generated API into the output directory (only files restmint owns are touched).')
    .addOption(manifestOption())
    .addOption(outOption())
    .action(async (options: { manifest: string; out: string }) => {
      exitCode = await (await import('./run-generate.js')).runGenerate(options.manifest, options.out, io)
    })
  program
    .command('check')
    .description(
      'Exit 0 when the output directory and the migrations are up to date, 1 (naming each stale file) when not. For CI.',
    )
    .addOption(manifestOption())
    .addOption(outOption())
    .addOption(migrationsOption())
    .addOption(publishedOption())
    .option('--diff', "print each stale file's diff and every contract change, not only one line each")
    .action(
      async (options: { manifest: string; out: string; migrations: string; published: string; diff?: boolean }) => {
        const { runCheck } = await import('./run-check.js')
        const { migrations: migrationsDir, published: publishedDir, diff = false } = options
        exitCode = await runCheck(options.manifest, options.out, io, { migrationsDir, publishedDir, diff })
      },
    )
  program
    .command('publish')
    .description("Record a version's generated OpenAPI as its published contract; over one, only additive changes.")
    .argument('<version>', 'the version to publish, e.g. v1')
    .addOption(manifestOption())
    .addOption(outOption())
    .addOption(publishedOption())
    .action(async (version: string, options: Omit<PublishOptions, 'version'>) => {
      exitCode = await (await import('./run-publish.js')).runPublish({ ...options, version }, io)
    })
  program
    .command('token')
    .description(
      'Print a development JWT for a secret_env scheme (signed with its variable, or the development secret).',
    )
    .addOption(manifestOption())
    .requiredOption('--scheme <name>', 'the jwt scheme of auth.schemes')
    .requiredOption('--sub <subject>', "the token's sub claim: who it is for")
    .option('--scope <scopes>', 'space-separated scopes, e.g. "posts:write posts:admin"')
    .addOption(new Option('--ttl <seconds>', 'how long the token is valid').default('3600'))
    .action(async (options: TokenOptions) => {
      exitCode = await (await import('./run-token.js')).runToken(options, io)
    })
  const migrate = program.command('migrate').description('Create, apply and list database migrations.')
  migrate
    .command('create')
    .description('Write the next migration (SQL for SQLite and PostgreSQL, and a snapshot) from the manifest changes.')
    .addOption(manifestOption())
    .addOption(migrationsOption())
    .addOption(
      new Option(
        '--name <name>',
        'the name after the number, e.g. add-talk-abstract (default: what changed)',
      ).argParser(parseSlug),
    )
    .addOption(
      new Option('--backfill <resource.field=value>', 'value for existing rows of a column that becomes NOT NULL')
        .argParser((value: string, previous: string[]) => [...previous, value])
        .default([]),
    )
    .addOption(new Option('--allow-data-loss', 'allow dropping tables and columns, and lossy type changes'))
    .action(async (options: MigrateCreateOptions) => {
      exitCode = await (await import('./run-migrate-create.js')).runMigrateCreate(options, io)
    })
  migrate
    .command('baseline')
    .description(
      'Record the schema of a database that serve created without migrations as 0001_init (after checking it is what the manifest creates).',
    )
    .addOption(dbOption())
    .addOption(schemaOption())
    .addOption(manifestOption())
    .addOption(new Option('--from <file>', 'the manifest the database was created from (default: --manifest)'))
    .addOption(migrationsOption())
    .action(async (options: MigrateBaselineOptions) => {
      exitCode = await (await import('./run-migrate-baseline.js')).runMigrateBaseline(options, io)
    })
  program
    .command('serve')
    .description('Serve the generated API until SIGINT or SIGTERM.')
    .addOption(outOption())
    .addOption(
      new Option(
        '-m, --manifest <file>',
        'the manifest the output must match (no check when it does not exist)',
      ).default('resources.yaml'),
    )
    .addOption(new Option('--generate', 'regenerate the output first when it does not match the manifest'))
    .addOption(dbOption())
    .addOption(schemaOption())
    .addOption(migrationsOption())
    .addOption(
      new Option('--migrate', 'apply pending migrations first (without it, serve refuses to start while any are)'),
    )
    .addOption(new Option('-p, --port <port>', 'port to listen on').default('3000').env('PORT'))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(
      new Option(
        '--seed',
        'insert a few sample rows (values the manifest accepts) when the database is empty; a database with any row is left as it is',
      ),
    )
    .addOption(
      new Option(
        '--shutdown-timeout <seconds>',
        'on SIGTERM, how long requests in flight may finish (default: 10)',
      ).env('SHUTDOWN_TIMEOUT'),
    )
    .addOption(new Option('--pool-size <n>', 'PostgreSQL connections at most (default: 10)').env('DATABASE_POOL_SIZE'))
    .addOption(
      new Option('--pool-timeout <ms>', 'how long a request waits for a PostgreSQL connection (default: 5000)').env(
        'DATABASE_POOL_TIMEOUT',
      ),
    )
    .addOption(
      // restmint dev's: it has just checked the module against the manifest, which costs a restart ~0.2 s.
      new Option('--app-module-checked', 'skip the app module check (restmint dev did it)').hideHelp(),
    )
    .addOption(
      // restmint dev's: the next server loads while the last one stops, and listens once it is told the port is free.
      new Option('--listen-when-told', 'once ready, listen only after a line on stdin (restmint dev)').hideHelp(),
    )
    .action(async (options: Parameters<typeof runServe>[0]) => {
      exitCode = await (await import('./run-serve.js')).runServe(options, io)
    })
  program
    .command('dev')
    .description(
      'Serve the API and follow every save of the manifest: validate, migrate the development database, regenerate, restart.',
    )
    .addOption(manifestOption())
    .addOption(outOption())
    .addOption(dbOption())
    .addOption(schemaOption())
    .addOption(migrationsOption())
    .addOption(new Option('-p, --port <port>', 'port to listen on (0: any free one)').default('3000').env('PORT'))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .action(async (options: DevOptions) => {
      exitCode = await (await import('./run-dev.js')).runDev(options, io)
    })
  program
    .command('purge')
    .description(
      'Delete for good the records of soft_delete resources deleted more than --older-than days ago, in batches.',
    )
    .requiredOption('--older-than <days>', 'purge records soft-deleted more than this many whole days ago', parseCount)
    .addOption(new Option('--resource <name>', 'only this resource (default: every soft_delete one)'))
    .addOption(new Option('--batch-size <n>', 'rows per transaction').default(500).argParser(parsePositive))
    .addOption(manifestOption())
    .addOption(dbOption())
    .addOption(schemaOption())
    .action(async (options: PurgeOptions) => {
      exitCode = await (await import('./run-purge.js')).runPurge(options, io)
    })
  migrate
    .command('apply')
    .description('Apply pending migrations in order, each in one transaction; exit 0 when the database is up to date.')
    .addOption(dbOption())
    .addOption(schemaOption())
    .addOption(migrationsOption())
    .action(async (options: MigrationOptions) => {
      exitCode = await (await import('./run-migrate-apply.js')).runMigrateApply(options, io)
    })
  migrate
    .command('status')
    .description('List applied and pending migrations; exit 0 when none is pending, 1 when some are or on a problem.')
    .addOption(dbOption())
    .addOption(schemaOption())
    .addOption(migrationsOption())
    .action(async (options: MigrationOptions) => {
      exitCode = await (await import('./run-migrate-status.js')).runMigrateStatus(options, io)
    })
  try {
    await program.parseAsync(argv.slice(2), { from: 'user' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE
    if (error instanceof UserError) {
      io.stderr(`restmint: ${redactCredentials(error.message)}\n`)
      return EXIT_FAILED
    }
    // A bug, not bad input: the whole error for the report, minus any credentials it quotes.
    io.stderr(`restmint: unexpected error, please report it:\n${redactCredentials(inspect(error))}\n`)
    return EXIT_FAILED
  }
  return exitCode
}

/** `--name` of `migrate create`: what follows the number in a migration's directory name, normalised (`add-x` → `add_x`). */
function parseSlug(value: string): string {
  const slug = normalizeMigrationName(value)
  if (MIGRATION_DIRECTORY.test(`0000_${slug}`)) return slug
  throw new InvalidArgumentError('name it with letters or digits, e.g. add-posts-summary (written add_posts_summary).')
}

/** `--older-than` of `purge`: whole days, 0 or more (0 purges every soft-deleted record). */
function parseCount(value: string): number {
  if (/^(0|[1-9][0-9]{0,5})$/.test(value)) return Number(value)
  throw new InvalidArgumentError('give a whole number of days, e.g. --older-than 30.')
}

/** `--batch-size` of `purge`: rows per transaction, at least 1. */
function parsePositive(value: string): number {
  if (/^[1-9][0-9]{0,5}$/.test(value)) return Number(value)
  throw new InvalidArgumentError('give a whole number of rows, at least 1, e.g. --batch-size 500.')
}
