/**
 * A project that started without migrations (generate + serve created the tables) and then changed its
 * manifest: `migrate baseline --from <the manifest the tables came from>` records the database's schema as
 * 0001_init, `migrate create` writes the change as 0002, and `migrate apply` adopts 0001 and applies 0002,
 * keeping the rows. Without the right manifest, baseline lists how the database differs and writes nothing.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { defineSnapshotTable } from '../../generator/migrate/define-snapshot-table.js'
import { createStorage } from '../../runtime/storage/create-storage.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS } from '../support/test-postgres.js'
import { createMigrationDatabase, type MigrationDatabase } from './migration-database.js'
import { manifestOf, storageOf } from './storage-of.js'

const PREVIOUS = `  posts:\n    fields:\n      title: { type: string, required: true }\n`
const CURRENT = `${PREVIOUS}      summary: { type: string }\n`

describe.each(DIALECTS)('%s: restmint migrate baseline', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  const cli = (...args: string[]) => runCli(database.directory, 'migrate', ...args, ...database.args)
  const migrations = () => join(database.directory, 'migrations')

  /** What `serve` does without migrations: the previous manifest's tables created, a row written through them. */
  async function serveWithoutMigrations(): Promise<void> {
    const tables = storageOf(PREVIOUS).snapshot.tables.map(defineSnapshotTable)
    const storage = createStorage(database.url, tables, { schema: database.schema })
    try {
      await storage.prepare()
    } finally {
      await storage.close()
    }
    const now = '2026-11-26T10:00:00.000Z'
    await database.query(`insert into posts (title, created_at, updated_at) values ('kept', '${now}', '${now}')`)
    writeFileSync(join(database.directory, 'previous.yaml'), manifestOf(PREVIOUS))
    writeFileSync(join(database.directory, 'resources.yaml'), manifestOf(CURRENT))
  }

  it('records the schema the previous manifest created, then create and apply carry the change over the rows', async () => {
    database = createMigrationDatabase(dialect)
    await serveWithoutMigrations()

    const refused = await cli('baseline')
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toContain(`the database's tables differ from what resources.yaml creates:\n`)
    expect(refused.stderr).toContain('column "summary" is missing')
    expect(refused.stderr).toContain('--from previous.yaml. Nothing was written.')
    expect(existsSync(migrations())).toBe(false)

    const baseline = await cli('baseline', '--from', 'previous.yaml')
    expect(baseline.stderr).toBe('')
    expect(baseline.exitCode).toBe(0)
    expect(baseline.stdout).toContain(
      'Created migrations/0001_init/ from previous.yaml: the schema the database holds (1 table).',
    )

    const created = await runCli(database.directory, 'migrate', 'create')
    expect(created.stdout).toContain('Created migrations/0002_add_posts_summary/')
    const applied = await cli('apply')
    expect(applied.exitCode).toBe(0)
    expect(applied.stdout).toContain('adopted 0001_init')
    expect(applied.stdout).toContain('applied 0002_add_posts_summary')
    expect(await database.query('select title, summary from posts')).toEqual([{ title: 'kept', summary: null }])

    const again = await cli('baseline', '--from', 'previous.yaml')
    expect(again.exitCode).toBe(1)
    expect(again.stderr).toContain(
      'migrations/0001_init exists: baseline records the first migration of a project that has none.',
    )
    expect(readdirSync(migrations())).toEqual(['0001_init', '0002_add_posts_summary'])
  })

  it('writes nothing for a database without the manifest tables', async () => {
    database = createMigrationDatabase(dialect)
    writeFileSync(join(database.directory, 'resources.yaml'), manifestOf(CURRENT))
    const run = await cli('baseline')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toContain(
      'the database holds none of the tables of resources.yaml: there is no schema to record.',
    )
    expect(existsSync(migrations())).toBe(false)
  })
})
