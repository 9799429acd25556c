/**
 * Adopting a database created before migrations when it already has an empty
 * restmint_migrations table (made by hand, or by a tool that stopped before
 * recording anything): it records nothing, so it is adopted like a database
 * without the table, rather than failing on "table already exists".
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { allTables } from '../../generated/schema.js'
import { createStorage } from '../../runtime/storage/create-storage.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS } from '../support/test-postgres.js'
import { createMigrationDatabase, type MigrationDatabase } from './migration-database.js'
import { writeInitialMigration } from './migration-fixtures.js'

describe.each(DIALECTS)(
  '%s: a database created before migrations, with an empty restmint_migrations table',
  (dialect) => {
    let database: MigrationDatabase
    afterEach(() => database.dispose())

    it('is adopted: the first migration is recorded without running, the rows kept', async () => {
      database = createMigrationDatabase(dialect)
      const migrations = join(database.directory, 'migrations')
      const storage = createStorage(database.url, allTables, { schema: database.schema })
      try {
        await storage.prepare()
        await storage.insert(
          allTables.find((table) => table.name === 'authors')!,
          { name: 'Ada' },
        )
      } finally {
        await storage.close()
      }
      await database.query(
        'create table restmint_migrations (id text primary key, name text not null, checksum text not null, applied_at text not null)',
      )
      writeInitialMigration(migrations, allTables)

      const run = await runCli(database.directory, 'migrate', 'apply', ...database.args, '--migrations', migrations)
      expect(run).toMatchObject({
        exitCode: 0,
        stderr: '',
        stdout:
          "restmint: adopted 0001_init: the database's tables match its snapshot; recorded as applied without running it\n" +
          'restmint: nothing to apply, 1 adopted; the database is up to date\n',
      })
      expect(await database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])
      expect(await database.query('select name from authors')).toEqual([{ name: 'Ada' }])
    })
  },
)
