/**
 * `restmint purge --older-than <days>` (issue 17): deletes for good the posts
 * of test/fixtures/soft-delete-api soft-deleted before the cut-off, cascading
 * their comments, keeping one a restrict reference holds, on both databases.
 */
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createStorage } from '../../runtime/storage/create-storage.js'
import { allTables, commentsTable, postsTable, reviewsTable } from '../fixtures/soft-delete-api/generated/schema.js'
import { createMigrationDatabase, type MigrationDatabase } from '../migrate/migration-database.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS } from '../support/test-postgres.js'

const MANIFEST = join(import.meta.dirname, '../fixtures/soft-delete-api/resources.yaml')

describe.each(DIALECTS)('%s: restmint purge', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  it('purges posts deleted more than --older-than days ago, batch by batch, following on_delete', async () => {
    database = createMigrationDatabase(dialect)
    copyFileSync(MANIFEST, join(database.directory, 'resources.yaml'))
    const storage = createStorage(database.url, allTables, { schema: database.schema })
    const ids: Record<string, number> = {}
    try {
      await storage.prepare()
      for (const slug of ['old-1', 'old-2', 'old-3', 'held', 'recent', 'live']) {
        ids[slug] = Number((await storage.insert(postsTable, { headline: slug, slug })).id)
      }
      await storage.insert(commentsTable, { text: 'goes with old-1', post_id: ids['old-1']! })
      for (const slug of ['old-1', 'old-2', 'old-3', 'held', 'recent']) await storage.delete(postsTable, ids[slug]!)
      await storage.insert(reviewsTable, { stars: 1, post_id: ids.held! })
    } finally {
      await storage.close()
    }
    // Forty days ago, but for `recent`.
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString()
    await database.query(`update posts set deleted_at = '${longAgo}' where slug <> 'recent' and deleted_at is not null`)

    const run = await runCli(database.directory, 'purge', '--older-than', '30', '--batch-size', '2', ...database.args)
    expect(run.stderr).toBe('')
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toMatch(
      /^restmint: purged 3 posts deleted before \d{4}-\d\d-\d\dT[\d:.]+Z; 1 kept: still referenced by restrict relations \(delete those first\)\n$/,
    )
    const left = await database.query<{ slug: string }>('select slug from posts order by slug')
    expect(left.map((row) => row.slug)).toEqual(['held', 'live', 'recent'])
    expect(await database.query('select id from comments')).toEqual([])
  })

  it('refuses a bad --older-than (exit 2) and a resource that does not soft-delete (exit 1)', async () => {
    database = createMigrationDatabase(dialect)
    copyFileSync(MANIFEST, join(database.directory, 'resources.yaml'))
    const bad = await runCli(database.directory, 'purge', '--older-than', 'soon', ...database.args)
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('give a whole number of days, e.g. --older-than 30.')
    const other = await runCli(
      database.directory,
      'purge',
      '--older-than',
      '1',
      '--resource',
      'authors',
      ...database.args,
    )
    expect(other.exitCode).toBe(1)
    expect(other.stderr).toContain(
      '--resource authors is not a resource with soft_delete: true in resources.yaml; those are: posts',
    )
  })
})
