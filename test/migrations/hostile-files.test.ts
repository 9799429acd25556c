/**
 * Migration files as people and tools leave them: a file that commits the
 * applier's transaction itself, and files checked out with CRLF line
 * endings (git's autocrlf on Windows) after they were applied with LF, and
 * a migration directory that is a symbolic link, a file saved as Latin-1 or
 * with a byte order mark.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MIGRATION_SQL_FILES } from '../../runtime/migrations/migration-files.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS } from '../support/test-postgres.js'
import { createMigrationDatabase, type MigrationDatabase } from './migration-database.js'
import { bothDialects, writeMigration } from './migration-fixtures.js'

const NOTES = 'create table notes (id integer primary key);\n-- notes\n'

describe.each(DIALECTS)('%s: hostile migration files', (dialect) => {
  let database: MigrationDatabase
  let migrations: string
  afterEach(() => database.dispose())
  const setUp = () => {
    database = createMigrationDatabase(dialect)
    migrations = join(database.directory, 'migrations')
  }
  const cli = (command: 'apply' | 'status') =>
    runCli(database.directory, 'migrate', command, ...database.args, '--migrations', migrations)

  it('refuses a file that commits in the middle, before running any of it', async () => {
    setUp()
    writeMigration(
      migrations,
      '0001_notes',
      bothDialects(
        'create table notes (id integer primary key);\n-- a COMMIT; in a comment is no statement\n' +
          "insert into notes (id) values (1); /* 'COMMIT;' */\n  COMMIT;\ncreate table tags (id integer primary key);\n",
      ),
    )
    const applied = await cli('apply')
    expect(applied.exitCode).toBe(1)
    expect(applied.stderr).toBe(
      `restmint: ${join(migrations, '0001_notes', MIGRATION_SQL_FILES[dialect])}:4:3: COMMIT controls the transaction ` +
        'that migrate apply runs 0001_notes in (a COMMIT would leave what follows it unable to roll back), so 0001_notes ' +
        'was not applied; remove every BEGIN, COMMIT, ROLLBACK and END from the file (it is not applied yet, so it may ' +
        'still change): each migration runs in one transaction of its own.\n',
    )
    expect(await database.tableNames()).toEqual([])
  })

  it('applies a trigger whose body runs between BEGIN and END', async () => {
    setUp()
    const trigger = {
      sqlite:
        'create table notes (id integer primary key, body text);\ncreate table audit (body text);\n' +
        'create trigger notes_audit after insert on notes\nbegin\n  insert into audit (body) values (new.body);\nend;\n' +
        "insert into notes (body) values ('begin; commit;');\n",
      postgres:
        'create table notes (id integer primary key, body text);\ncreate table audit (body text);\n' +
        'create function notes_audit() returns trigger language plpgsql as $body$\nbegin\n' +
        '  insert into audit (body) values (new.body);\n  return new;\nend;\n$body$;\n' +
        'create trigger notes_audit after insert on notes for each row execute function notes_audit();\n' +
        "insert into notes (id, body) values (1, 'begin; commit;');\n",
    }
    writeMigration(migrations, '0001_notes', trigger)
    expect(await cli('apply')).toMatchObject({ exitCode: 0, stderr: '' })
    expect(await database.query('select body from audit')).toEqual([{ body: 'begin; commit;' }])
  })

  it('reads a migration applied with LF line endings as unchanged when checked out with CRLF and a BOM', async () => {
    setUp()
    writeMigration(migrations, '0001_notes', bothDialects(NOTES))
    expect((await cli('apply')).exitCode).toBe(0)
    const file = join(migrations, '0001_notes', MIGRATION_SQL_FILES[dialect])
    writeFileSync(file, `\ufeff${readFileSync(file, 'utf8').replaceAll('\n', '\r\n')}`)

    expect(await cli('status')).toMatchObject({ exitCode: 0, stderr: '' })
    expect(await cli('apply')).toMatchObject({ exitCode: 0, stderr: '' })
    writeFileSync(file, readFileSync(file, 'utf8').replace('-- notes', '-- edited'))
    const changed = await cli('status')
    expect(changed.exitCode).toBe(1)
    expect(changed.stderr).toContain(`${file} changed since it was applied`)
  })

  it('applies a migration whose directory is a symbolic link, and names a link whose target is gone', async () => {
    setUp()
    writeMigration(migrations, '0001_notes', bothDialects(NOTES))
    const shared = mkdtempSync(join(tmpdir(), 'restmint-shared-migration-'))
    try {
      writeMigration(shared, '0002_tags', bothDialects('create table tags (id integer primary key);\n'))
      symlinkSync(join(shared, '0002_tags'), join(migrations, '0002_tags'))

      const applied = await cli('apply')
      expect(applied).toMatchObject({ exitCode: 0, stderr: '' })
      expect(applied.stdout).toContain('applied 0002_tags')
      expect(await database.tableNames()).toEqual(['notes', 'restmint_migrations', 'tags'])

      renameSync(join(shared, '0002_tags'), join(shared, 'moved'))
      const status = await cli('status')
      expect(status.exitCode).toBe(1)
      expect(status.stderr).toBe(
        `restmint: ${join(migrations, '0002_tags')} is a symbolic link to ${join(shared, '0002_tags')}, which does ` +
          'not exist; restore what it points to, or remove the link\n',
      )
    } finally {
      rmSync(shared, { recursive: true, force: true })
    }
  })

  it('applies a pending file that starts with a byte order mark', async () => {
    setUp()
    writeMigration(migrations, '0001_notes', bothDialects(`\ufeff${NOTES}`))
    expect(await cli('apply')).toMatchObject({ exitCode: 0, stderr: '' })
    expect(await database.tableNames()).toEqual(['notes', 'restmint_migrations'])
  })

  it('refuses a file that is not UTF-8 rather than writing U+FFFD into rows', async () => {
    setUp()
    const latin1 = Buffer.from(
      "create table notes (body text);\ninsert into notes (body) values ('caf\xe9');\n",
      'latin1',
    )
    writeMigration(migrations, '0001_notes', bothDialects(''))
    const file = join(migrations, '0001_notes', MIGRATION_SQL_FILES[dialect])
    writeFileSync(file, latin1)

    const applied = await cli('apply')
    expect(applied).toMatchObject({
      exitCode: 1,
      stderr:
        `restmint: ${file}:2: byte 0xe9 is not UTF-8; save the file as UTF-8 ` +
        "(it is read as UTF-8, whatever the database's encoding)\n",
    })
    expect(await database.tableNames()).toEqual([])
  })

  it('names a --migrations path that is a file as such, not as a database that cannot be opened', async () => {
    setUp()
    writeMigration(migrations, '0001_notes', bothDialects(NOTES))
    const file = join(migrations, '0001_notes', MIGRATION_SQL_FILES[dialect])
    const run = await runCli(database.directory, 'migrate', 'apply', ...database.args, '--migrations', file)
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toBe(
      `restmint: cannot read the migrations directory ${file} (ENOTDIR: not a directory, scandir '${file}'); ` +
        'pass the directory that holds the migrations with --migrations\n',
    )
  })
})
