/**
 * With migrations, they alone make the schema (review of issue 8): `serve`
 * refuses a manifest whose storage model no migration reaches, before
 * touching the database; prepare() creates nothing; a change made by hand is
 * drift that `serve`, `migrate status` and `migrate apply` all refuse.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createStorage } from '../../runtime/storage/create-storage.js'
import { createMigrationDatabase, type MigrationDatabase } from '../migrate/migration-database.js'
import { loadManifestApi } from '../migrate/load-manifest-api.js'
import { manifestOf } from '../migrate/storage-of.js'
import { runCli } from '../support/run-cli.js'
import { runCliProcess, spawnCli } from '../support/spawn-cli.js'
import { DIALECTS } from '../support/test-postgres.js'

const AUTHORS = '  authors:\n    fields:\n      name: { type: string, required: true }\n'
const TAGS = '  tags:\n    fields:\n      label: { type: string }\n'

describe.each(DIALECTS)('%s: serve and status with migrations managing the schema', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  const cli = (...args: string[]) => runCli(database.directory, ...args)
  const serveArgs = () => ['serve', ...database.args, '--port', '0']

  /** Writes the manifest and regenerates the output from it. */
  async function edit(resources: string): Promise<void> {
    writeFileSync(join(database.directory, 'resources.yaml'), manifestOf(resources))
    expect((await cli('generate')).exitCode).toBe(0)
  }

  async function startProject(): Promise<void> {
    database = createMigrationDatabase(dialect)
    await edit(AUTHORS)
    expect((await cli('migrate', 'create')).stdout).toMatch(/^Created migrations\/0001_init\//)
  }

  it('refuses a resource no migration creates, creating nothing; migrate create then serve --migrate serves it', async () => {
    await startProject()
    await edit(AUTHORS + TAGS)

    const refused = await runCliProcess(database.directory, [...serveArgs(), '--migrate'])
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toBe(
      "restmint: the manifest's storage model differs from migrations/0001_init/snapshot.json: create table tags; " +
        'run `restmint migrate create --manifest resources.yaml --migrations migrations`, review the migration, ' +
        'then apply it (`restmint migrate apply`, or `restmint serve --migrate`). Refusing to start (nothing was changed)\n',
    )
    expect(await database.tableNames()).toEqual([])

    expect((await cli('migrate', 'create')).stdout).toMatch(/^Created migrations\/0002_add_tags\//)
    const server = spawnCli(database.directory, [...serveArgs(), '--migrate'])
    try {
      const stdout = await server.waitForStdout(/serving .*\n/)
      expect(stdout).toContain('restmint: applying 0001_init (migrations/0001_init/')
      expect(stdout).toContain('restmint: applied 0002_add_tags\n')
      const base = /at (http:\/\/\S+) /.exec(stdout)![1]!
      expect((await fetch(`${base}/v1/tags`)).status).toBe(200)
    } finally {
      expect(await server.stop(), server.output().stderr).toEqual({ code: 0, signal: null })
    }
    expect(await database.tableNames()).toEqual(['authors', 'restmint_migrations', 'tags'])
  })

  it('reports a column dropped by hand as drift: status exits 1, serve and apply refuse', async () => {
    await startProject()
    expect((await cli('migrate', 'apply', ...database.args)).exitCode).toBe(0)
    await database.query('alter table authors drop column name')

    const drift =
      'the database differs from migrations/0001_init/snapshot.json, where its applied migrations lead ' +
      '(a change made by hand?):\n  - table "authors": column "name" is missing (manifest declares name: string)\n'
    const status = await cli('migrate', 'status', ...database.args)
    expect(status.exitCode).toBe(1)
    expect(status.stderr).toContain(`restmint: ${drift}`)
    expect(status.stdout).not.toContain('up to date')

    const serve = await cli(...serveArgs())
    expect(serve.exitCode).toBe(1)
    expect(serve.stderr).toContain(`refusing to start: ${drift}`)

    const apply = await cli('migrate', 'apply', ...database.args)
    expect(apply.exitCode).toBe(1)
    expect(apply.stderr).toContain(`refusing to apply migrations (nothing applied): ${drift}`)
  })

  it('prepare() without createMissing creates no table, and its advice names restmint migrate create', async () => {
    database = createMigrationDatabase(dialect)
    const { tables } = await loadManifestApi(manifestOf(AUTHORS))
    const storage = createStorage(database.url, tables, { schema: database.schema })
    try {
      await expect(storage.prepare({ createMissing: false })).rejects.toThrow(
        'The database differs from what its migrations lead to; refusing to start (nothing was changed):\n' +
          '  - table "authors" is missing (the manifest declares it)\n' +
          'A change made by hand? Undo it. A manifest change without its migration? ' +
          'Run restmint migrate create, review the migration, then restmint serve --migrate.',
      )
    } finally {
      await storage.close()
    }
    expect(await database.tableNames()).toEqual([])
  })
})
