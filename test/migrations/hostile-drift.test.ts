/**
 * Drift the migrations do not explain: a column added by hand after the
 * migrations ran. The storage still refuses to start, and says what to do in
 * a project that has migrations rather than "migrate by hand".
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { allTables } from '../../generated/schema.js'
import { applyMigrations } from '../../runtime/migrations/apply-migrations.js'
import { createStorage } from '../../runtime/storage/create-storage.js'
import { DIALECTS } from '../support/test-postgres.js'
import { createMigrationDatabase, type MigrationDatabase } from './migration-database.js'
import { writeInitialMigration } from './migration-fixtures.js'

describe.each(DIALECTS)('%s: a column changed by hand after migrating', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  it('still refuses to start, naming the column and the way out', async () => {
    database = createMigrationDatabase(dialect)
    const directory = join(database.directory, 'migrations')
    writeInitialMigration(directory, allTables)
    await applyMigrations({ url: database.url, schema: database.schema, directory })
    await database.query('alter table authors add column nickname text')

    const storage = createStorage(database.url, allTables, { schema: database.schema })
    try {
      await expect(storage.prepare()).rejects.toThrow(
        'The database does not match the manifest; refusing to start (nothing was changed):\n' +
          '  - table "authors": column "nickname" exists in the database but not in the manifest\n' +
          'If the manifest changed, create a migration (restmint migrate create) and apply it (restmint migrate ' +
          'apply, or serve --migrate); if the database was changed by hand, undo that change; or point --db at a ' +
          'new database.',
      )
    } finally {
      await storage.close()
    }
    expect(await database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])
  })
})
