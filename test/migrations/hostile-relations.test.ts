import { afterEach, describe, expect, it } from 'vitest'
import { disposeMigrationProjects, startMigrationProject } from '../migrate/start-migration-project.js'
import { DIALECTS } from '../support/test-postgres.js'

/**
 * A required relation added to a table that holds rows: the new foreign key
 * column is NOT NULL without a default, which SQLite's ADD COLUMN cannot
 * add, so the table is rebuilt with the backfill; a backfill naming a row
 * that does not exist fails at apply and leaves the database as it was.
 */
afterEach(() => disposeMigrationProjects())

const AUTHORS = `  authors:
    fields:
      name: { type: string, required: true }
`
const POSTS = `  posts:
    fields:
      title: { type: string, required: true }
`
const WITH_AUTHOR = `${AUTHORS}${POSTS}    relations:
      author: { resource: authors, required: true }
`
const ROWS = { authors: [{ name: 'Ada' }, { name: 'Grace' }], posts: [{ title: 'First' }, { title: 'Second' }] }

describe.each(DIALECTS)('%s: adding a required relation to a table with rows', (dialect) => {
  it('sets every existing row to the --backfill id', async () => {
    const project = await startMigrationProject(dialect, AUTHORS + POSTS, ROWS)
    const served = await project.migrate(WITH_AUTHOR, '--backfill', 'posts.author_id=2')
    expect((await served.list('posts')).map((row) => [row.title, row.author_id])).toEqual([
      ['First', 2],
      ['Second', 2],
    ])
  })

  it('fails at apply, changing nothing, when the --backfill id names no row', async () => {
    const project = await startMigrationProject(dialect, AUTHORS + POSTS, ROWS)
    const created = await project.create(WITH_AUTHOR, '--backfill', 'posts.author_id=999')
    expect(created.exitCode, created.stderr).toBe(0)
    await expect(project.apply()).rejects.toThrow(/migration 0002_add_posts_author_id failed and was rolled back/)
    expect(await project.database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])
    expect(await project.database.query('select title from posts order by id')).toEqual([
      { title: 'First' },
      { title: 'Second' },
    ])
    const columns = await project.database.query<{ name: string }>(
      dialect === 'sqlite'
        ? `select name from pragma_table_info('posts')`
        : `select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = 'posts'`,
    )
    expect(columns.map((column) => column.name)).not.toContain('author_id')
  })
})
