/**
 * `restmint serve` with a migrations directory (issue 8): it refuses to start
 * while migrations are pending, `serve --migrate` applies them first, and
 * instances started together apply each migration once.
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { allTables } from '../fixtures/shop-api/generated/schema.js'
import { createMigrationDatabase, type MigrationDatabase } from '../migrate/migration-database.js'
import { writeInitialMigration } from '../migrate/migration-fixtures.js'
import { runCli } from '../support/run-cli.js'
import { runCliProcess, spawnCli, type CliProcess } from '../support/spawn-cli.js'
import { DIALECTS, POSTGRES_OFF } from '../support/test-postgres.js'

// A small project without an app module: these tests are about migrations at serve, and every serve of the
// example project (many resources, an app module checked against its manifest) cost twice the CPU.
const SHOP_API = join(import.meta.dirname, '..', 'fixtures', 'shop-api')

let database: MigrationDatabase
let migrations: string
afterEach(() => database.dispose())

function setUp(dialect: (typeof DIALECTS)[number]): void {
  database = createMigrationDatabase(dialect)
  migrations = join(database.directory, 'migrations')
  writeInitialMigration(migrations, allTables)
}

const serveArgs = () => ['serve', ...database.args, '--migrations', migrations, '--port', '0']

/** Waits until `cli` serves, checks it answers, and stops it. */
async function expectServing(cli: CliProcess): Promise<string> {
  try {
    const stdout = await cli.waitForStdout(/serving .*\n/)
    const base = /at (http:\/\/\S+) /.exec(stdout)![1]!
    expect((await fetch(`${base}/v1/authors`)).status).toBe(200)
    return stdout
  } finally {
    const ended = await cli.stop()
    expect(ended, cli.output().stderr).toEqual({ code: 0, signal: null })
  }
}

describe.each(DIALECTS)('%s: restmint serve with migrations', (dialect) => {
  it('refuses to start while migrations are pending, naming them and the command that applies them', async () => {
    setUp(dialect)
    const run = await runCli(SHOP_API, ...serveArgs())
    expect(run.exitCode).toBe(1)
    const schema = dialect === 'postgres' ? ` --schema ${database.schema}` : ''
    expect(run.stderr).toBe(
      `restmint: 1 migration is pending (0001_init); refusing to start on a database the manifest's migrations ` +
        `have not reached. Apply it with restmint migrate apply --db ${database.url}${schema} --migrations ${migrations}, ` +
        `or start with restmint serve --migrate\n`,
    )
    expect(await database.tableNames()).toEqual([])
  })

  it('applies pending migrations first with --migrate, then serves', async () => {
    setUp(dialect)
    const stdout = await expectServing(spawnCli(SHOP_API, [...serveArgs(), '--migrate']))
    expect(stdout).toMatch(/^restmint: applying 0001_init .*\nrestmint: applied 0001_init\nrestmint: serving /)
    expect(await database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])
    // Applied: a plain serve starts now.
    await expectServing(spawnCli(SHOP_API, serveArgs()))
  })
})

describe('instances applying migrations together', () => {
  it.skipIf(POSTGRES_OFF)(
    'postgres: two serve --migrate on one schema both come up; the migration is applied once',
    async () => {
      setUp('postgres')
      const instances = [0, 1].map(() => spawnCli(SHOP_API, [...serveArgs(), '--migrate']))
      const outputs = await Promise.all(instances.map(expectServing))
      expect(outputs.filter((stdout) => stdout.includes('applying 0001_init'))).toHaveLength(1)
      expect(await database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])
    },
  )

  it('sqlite: two migrate apply on one file both succeed; the migration is applied once', async () => {
    setUp('sqlite')
    const args = ['migrate', 'apply', ...database.args, '--migrations', migrations]
    const runs = await Promise.all([0, 1].map(() => runCliProcess(database.directory, args)))
    expect(runs.map((run) => [run.exitCode, run.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ])
    expect(runs.filter((run) => run.stdout.includes('applying 0001_init'))).toHaveLength(1)
    expect(await database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])
  })
})
