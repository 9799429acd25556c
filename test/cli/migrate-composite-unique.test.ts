/**
 * `migrate create` then `migrate apply` adding a composite unique (issue 17)
 * over rows that already share a pair of values: the migration fails naming
 * the pairs and leaves the database as it was, on both dialects, as a column
 * made unique does (migrate-unique.test.ts).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMigrationDatabase, type MigrationDatabase } from '../migrate/migration-database.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS } from '../support/test-postgres.js'

function manifestWith(unique: string): string {
  return [
    'restmint: 1',
    'service: { title: Case }',
    'versions: { v1: {} }',
    'resources:',
    '  posts:',
    '    fields:',
    '      section: { type: string, required: true, max_length: 50 }',
    '      slug: { type: string, required: true, max_length: 50 }',
    unique,
    '',
  ].join('\n')
}

describe.each(DIALECTS)('%s: migrate apply adding a composite unique', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  it('fails over duplicated pairs naming them, rolls back, and applies once they are fixed', async () => {
    database = createMigrationDatabase(dialect)
    const cli = (...args: string[]) => runCli(database.directory, ...args)
    const apply = () => cli('migrate', 'apply', ...database.args)
    const manifest = join(database.directory, 'resources.yaml')
    writeFileSync(manifest, manifestWith(''))
    expect((await cli('migrate', 'create')).stderr).toBe('')
    expect((await apply()).stderr).toBe('')
    const now = `'2026-11-24T00:00:00.000Z'`
    const rows = [
      ['news', 'a'],
      ['news', 'a'],
      ['blog', 'a'],
      ['news', 'b'],
    ]
    await database.query(
      `insert into posts (section, slug, created_at, updated_at) values ${rows.map(([section, slug]) => `('${section}', '${slug}', ${now}, ${now})`).join(', ')}`,
    )
    writeFileSync(manifest, manifestWith('    unique: [[section, slug]]'))
    expect((await cli('migrate', 'create', '--name', 'unique_slugs')).stderr).toBe('')

    const failed = await apply()
    expect(failed.exitCode).toBe(1)
    expect(failed.stderr).toContain('migration 0002_unique_slugs failed and was rolled back')
    expect(failed.stderr).toContain(`"posts".("section", "slug") holds ["news","a"] in 2 rows.`)
    expect(await database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])

    await database.query(`delete from posts where id = 2`)
    expect((await apply()).stderr).toBe('')
    await expect(
      database.query(`insert into posts (section, slug, created_at, updated_at) values ('blog', 'a', ${now}, ${now})`),
    ).rejects.toThrow(/unique|duplicate/i)
  })
})
