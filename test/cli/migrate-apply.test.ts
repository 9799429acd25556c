/**
 * `restmint migrate apply` and `migrate status` (issue 8): pending migrations
 * applied in order and recorded once, changed or missing applied migrations
 * refused, failing SQL rolled back, databases created before migrations adopted.
 */
import { createHash } from 'node:crypto'
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { allTables } from '../../generated/schema.js'
import { createStorage } from '../../runtime/storage/create-storage.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'
import { createMigrationDatabase, type MigrationDatabase } from '../migrate/migration-database.js'
import { bothDialects, writeInitialMigration, writeMigration } from '../migrate/migration-fixtures.js'
import { REPO } from '../support/copy-checkout.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS, POSTGRES_URL } from '../support/test-postgres.js'

const NOTES = 'create table notes (id integer primary key, body text);\n'

describe.each(DIALECTS)('%s: restmint migrate apply', (dialect) => {
  let database: MigrationDatabase
  let migrations: string
  const cli = (command: 'apply' | 'status') =>
    runCli(database.directory, 'migrate', command, ...database.args, '--migrations', migrations)
  const records = () =>
    database.query<{ id: string; name: string; checksum: string }>(
      'select id, name, checksum from restmint_migrations order by id',
    )

  afterEach(() => database.dispose())
  const setUp = () => {
    database = createMigrationDatabase(dialect)
    migrations = join(database.directory, 'migrations')
  }

  it('applies pending migrations in order, records each once, and status lists them', async () => {
    setUp()
    writeMigration(migrations, '0001_notes', bothDialects(NOTES))
    const second = writeMigration(
      migrations,
      '0002_first_note',
      bothDialects(
        `-- DATA LOSS: nothing, but the header is printed\ninsert into notes (id, body) values (1, 'kept');\n`,
      ),
    )

    const before = await cli('status')
    expect(before).toMatchObject({ exitCode: 1, stderr: '' })
    expect(before.stdout).toMatch(
      / 0001_notes +pending\n +0002_first_note +pending\n(restmint: no database at .*\n)?.*2 pending; apply with restmint migrate apply --db /,
    )

    const applied = await cli('apply')
    expect(applied.stderr).toBe('')
    expect(applied).toMatchObject({ exitCode: 0 })
    expect(applied.stdout).toBe(
      `restmint: applying 0001_notes (${join(migrations, '0001_notes', `${dialect}.sql`)})\n` +
        `restmint: applied 0001_notes\n` +
        `restmint: applying 0002_first_note (${join(second, `${dialect}.sql`)})\n` +
        `restmint:   DATA LOSS: nothing, but the header is printed\n` +
        `restmint: applied 0002_first_note\n` +
        `restmint: 2 applied; the database is up to date\n`,
    )
    const checksum = createHash('sha256')
      .update(readFileSync(join(second, `${dialect}.sql`)))
      .digest('hex')
    expect(await records()).toEqual([
      { id: '0001', name: '0001_notes', checksum: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { id: '0002', name: '0002_first_note', checksum },
    ])

    const after = await cli('status')
    expect(after).toMatchObject({ exitCode: 0, stderr: '' })
    expect(after.stdout).toMatch(
      / 0001_notes +applied \d{4}-\d\d-\d\dT[\d:.]+Z\n +0002_first_note +applied .*\nrestmint: up to date\n$/,
    )
    expect(await cli('apply')).toMatchObject({
      exitCode: 0,
      stdout: 'restmint: nothing to apply; the database is up to date\n',
    })
    expect(await database.query('select id, body from notes')).toEqual([{ id: 1, body: 'kept' }])
  })

  it('refuses a changed applied migration before applying anything, naming the file and both checksums', async () => {
    setUp()
    const first = writeMigration(migrations, '0001_notes', bothDialects(NOTES))
    expect((await cli('apply')).exitCode).toBe(0)
    const recorded = (await records())[0]!.checksum
    const file = join(first, `${dialect}.sql`)
    appendFileSync(file, 'create index notes_body_idx on notes (body);\n')
    writeMigration(migrations, '0002_tags', bothDialects('create table tags (id integer primary key);\n'))

    for (const command of ['apply', 'status'] as const) {
      const run = await cli(command)
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toContain(`${file} changed since it was applied`)
      expect(run.stderr).toContain(
        `checksum recorded ${recorded}, file now ${createHash('sha256').update(readFileSync(file)).digest('hex')}`,
      )
      expect(run.stderr).toContain('create a new migration with restmint migrate create instead')
    }
    expect(await database.tableNames()).toEqual(['notes', 'restmint_migrations'])
  })

  it('refuses a database that records a migration this checkout lacks', async () => {
    setUp()
    writeMigration(migrations, '0001_notes', bothDialects(NOTES))
    const second = writeMigration(
      migrations,
      '0002_tags',
      bothDialects('create table tags (id integer primary key);\n'),
    )
    expect((await cli('apply')).exitCode).toBe(0)
    rmSync(second, { recursive: true })

    const run = await cli('apply')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toMatch(
      /migration 0002_tags \(applied .*\) is not in this checkout's migrations directory: the database is ahead of this checkout/,
    )
  })

  it("rolls back a migration whose SQL fails, naming the migration, its file and the database's message", async () => {
    setUp()
    writeMigration(
      migrations,
      '0001_notes',
      bothDialects(`${NOTES}insert into notes (id, body) values (1, 'same'), (2, 'same');\n`),
    )
    expect((await cli('apply')).exitCode).toBe(0)
    const second = writeMigration(
      migrations,
      '0002_unique_body',
      bothDialects(
        'create table tags (id integer primary key);\ncreate unique index notes_body_key on notes (body);\n',
      ),
    )

    const run = await cli('apply')
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain('applying 0002_unique_body')
    expect(run.stderr).toContain('migration 0002_unique_body failed and was rolled back')
    expect(run.stderr).toContain(join(second, `${dialect}.sql`))
    expect(run.stderr).toContain(
      dialect === 'sqlite' ? 'UNIQUE constraint failed: notes.body' : 'Key (body)=(same) is duplicated.',
    )
    expect(await database.tableNames()).toEqual(['notes', 'restmint_migrations'])
    expect((await records()).map((record) => record.id)).toEqual(['0001'])
    expect(await database.query('select id, body from notes order by id')).toEqual([
      { id: 1, body: 'same' },
      { id: 2, body: 'same' },
    ])
  })

  it.runIf(dialect === 'postgres')('points at the line and column PostgreSQL reports', async () => {
    setUp()
    const first = writeMigration(migrations, '0001_typo', bothDialects(`${NOTES}\nselect body\n  frm notes;\n`))
    const run = await cli('apply')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toContain(`${join(first, 'postgres.sql')}:4:7: syntax error at or near "notes"`)
    expect(await database.tableNames()).toEqual([])
  })

  it.runIf(dialect === 'sqlite')(
    'turns foreign keys off while a migration rebuilds a referenced table, and checks them before COMMIT',
    async () => {
      setUp()
      writeMigration(
        migrations,
        '0001_authors',
        bothDialects(
          'create table authors (id integer primary key);\n' +
            'create table posts (id integer primary key, author_id integer references authors (id) on delete cascade);\n' +
            'insert into authors (id) values (1);\ninsert into posts (id, author_id) values (10, 1);\n',
        ),
      )
      // SQLite's rebuild procedure: with foreign keys on, DROP TABLE would delete the posts by cascade.
      writeMigration(
        migrations,
        '0002_rebuild_authors',
        bothDialects(
          'create table new_authors (id integer primary key, name text);\n' +
            'insert into new_authors (id) select id from authors;\n' +
            'drop table authors;\nalter table new_authors rename to authors;\n',
        ),
      )
      expect((await cli('apply')).stderr).toBe('')
      expect(await database.query('select id, author_id from posts')).toEqual([{ id: 10, author_id: 1 }])

      writeMigration(migrations, '0003_dangling', bothDialects('insert into posts (id, author_id) values (11, 42);\n'))
      const run = await cli('apply')
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toContain('migration 0003_dangling failed and was rolled back')
      expect(run.stderr).toContain('row 11 of "posts" references a missing row of "authors"')
      expect(await database.query('select id from posts')).toEqual([{ id: 10 }])
      expect(await database.query<{ foreign_keys: number }>('pragma foreign_keys')).toEqual([{ foreign_keys: 1 }])
    },
  )

  describe('a database prepare() created before the project had migrations', () => {
    async function prepare(tables: readonly TableDefinition[]): Promise<void> {
      const storage = createStorage(database.url, tables, { schema: database.schema })
      try {
        await storage.prepare()
        await storage.insert(
          tables.find((table) => table.name === 'authors')!,
          { name: 'Ada' },
        )
      } finally {
        await storage.close()
      }
    }

    it('is adopted when its tables equal the first migration: recorded without running, then the rest applied', async () => {
      setUp()
      await prepare(allTables)
      writeInitialMigration(migrations, allTables)
      writeMigration(migrations, '0002_notes', bothDialects(NOTES))

      const status = await cli('status')
      expect(status.stdout).toMatch(
        /0001_init +pending \(the tables match its snapshot: apply records it without running it\)/,
      )
      const run = await cli('apply')
      expect(run.stderr).toBe('')
      expect(run.stdout).toBe(
        "restmint: adopted 0001_init: the database's tables match its snapshot; recorded as applied without running it\n" +
          `restmint: applying 0002_notes (${join(migrations, '0002_notes', `${dialect}.sql`)})\n` +
          'restmint: applied 0002_notes\n' +
          'restmint: 1 applied, 1 adopted; the database is up to date\n',
      )
      expect((await records()).map((record) => record.name)).toEqual(['0001_init', '0002_notes'])
      expect(await database.query('select name from authors')).toEqual([{ name: 'Ada' }])
    })

    it('is refused when its tables differ from the first migration, with the differences', async () => {
      setUp()
      const withoutEmail = allTables.map((table) =>
        table.name === 'authors'
          ? { ...table, columns: table.columns.filter((column) => column.name !== 'email') }
          : table,
      )
      await prepare(withoutEmail)
      writeInitialMigration(migrations, allTables)

      const run = await cli('apply')
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toContain("its tables differ from the first migration's snapshot")
      expect(run.stderr).toContain('table "authors": column "email" is missing (manifest declares email: string)')
      expect(run.stdout).toBe('')
      expect(await database.tableNames()).not.toContain('restmint_migrations')
    })
  })
})

describe('restmint migrate apply and status, options', () => {
  it('refuse an empty --schema, as serve does', async () => {
    for (const command of ['apply', 'status']) {
      const run = await runCli(REPO, 'migrate', command, '--db', POSTGRES_URL, '--schema', '')
      expect(run).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'restmint: --schema must name a PostgreSQL schema, e.g. --schema public\n',
      })
    }
  })

  it('status on an SQLite file that does not exist lists every migration as pending and creates nothing', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'restmint-status-'))
    try {
      const migrations = join(directory, 'migrations')
      writeMigration(migrations, '0001_notes', bothDialects(NOTES))
      const file = join(directory, 'data', 'shop.db')
      const run = await runCli(directory, 'migrate', 'status', '--db', `sqlite:${file}`)
      expect(run).toEqual({
        exitCode: 1,
        stdout:
          `restmint: migrations/ on sqlite:${file}:\n` +
          '  0001_notes  pending\n' +
          `restmint: no database at ${file}; every migration is pending\n` +
          `restmint: 1 pending; apply with restmint migrate apply --db sqlite:${file}\n`,
        stderr: '',
      })
      expect(readdirSync(directory)).toEqual(['migrations'])
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })
})
