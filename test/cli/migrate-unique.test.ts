/**
 * `migrate create` then `migrate apply` making a column unique (issue 8):
 * over duplicate values the migration fails naming them and leaves the
 * database as it was, on both dialects; on SQLite the table is rebuilt under
 * a temporary name that does not clash with another table.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { renderMigrationSql } from '../../generator/migrate/render-migration-sql.js'
import type { StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import { createMigrationDatabase, type MigrationDatabase } from '../migrate/migration-database.js'
import { writeMigration } from '../migrate/migration-fixtures.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS } from '../support/test-postgres.js'

function manifestWith(titleRule: string): string {
  return [
    'restmint: 1',
    'service: { title: Case }',
    'versions: { v1: {} }',
    'resources:',
    '  posts:',
    '    fields:',
    `      title: { type: string, required: true${titleRule} }`,
    '  drafts:',
    '    fields:',
    '      title: { type: string, required: true }',
    '',
  ].join('\n')
}

/** An INSERT of one post per title. */
function insertPosts(titles: readonly string[]): string {
  const now = `'2026-11-24T00:00:00.000Z'`
  return `insert into posts (title, created_at, updated_at) values ${titles.map((title) => `('${title}', ${now}, ${now})`).join(', ')}`
}

describe.each(DIALECTS)('%s: migrate apply making a column unique', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  const cli = (...args: string[]) => runCli(database.directory, ...args)
  const apply = () => cli('migrate', 'apply', ...database.args)
  const titles = async (table: string) =>
    (await database.query<{ title: string }>(`select title from ${table} order by id`)).map((row) => row.title)

  it('fails over duplicates naming them, leaves the rows as they were, and applies once they are fixed', async () => {
    database = createMigrationDatabase(dialect)
    const manifest = join(database.directory, 'resources.yaml')
    writeFileSync(manifest, manifestWith(''))
    const initial = await cli('migrate', 'create')
    expect(initial.stderr).toBe('')
    expect((await apply()).stderr).toBe('')
    await database.query(insertPosts(['Hello', 'Hello', 'Other', 'Hi', 'Hi', 'Hi']))
    await database.query(insertPosts(['Kept']).replace('posts', 'drafts'))
    const postsBefore = await titles('posts')

    writeFileSync(manifest, manifestWith(', unique: true'))
    const created = await cli('migrate', 'create', '--name', 'unique_titles')
    expect(created.stderr).toBe('')
    const file = `migrations/0002_unique_titles/${dialect}.sql`

    const failed = await apply()
    expect(failed.exitCode).toBe(1)
    expect(failed.stderr).toContain(`migration 0002_unique_titles failed and was rolled back`)
    expect(failed.stderr).toContain(
      `The column is to be unique, but "posts"."title" holds "Hello" in 2 rows, "Hi" in 3 rows.\n` +
        `Deduplicate first: edit ${file} (not applied yet, so it may still change)`,
    )
    expect(await titles('posts')).toEqual(postsBefore)
    expect(await database.tableNames()).toEqual(['drafts', 'posts', 'restmint_migrations'])
    expect(await database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])

    await database.query(`delete from posts where title in ('Hello', 'Hi') and id not in (1, 4)`)
    const applied = await apply()
    expect(applied.stderr).toBe('')
    expect(applied.stdout).toContain('applied 0002_unique_titles')
    expect(await titles('posts')).toEqual(['Hello', 'Other', 'Hi'])
    expect(await titles('drafts')).toEqual(['Kept'])
    await expect(database.query(insertPosts(['Other']))).rejects.toThrow(/unique|duplicate/i)
  })
})

describe('sqlite: rebuilding a table beside one named like its temporary table', () => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  it('rebuilds "posts" under another name than "new_posts", which keeps its rows', async () => {
    database = createMigrationDatabase('sqlite')
    const cli = (...args: string[]) => runCli(database.directory, ...args)
    writeFileSync(join(database.directory, 'resources.yaml'), manifestWith(''))
    expect((await cli('migrate', 'create')).stderr).toBe('')
    // Validation refuses a resource "new-posts" ("new" is an action verb), so the first migration is edited into one.
    const init = join(database.directory, 'migrations', '0001_init')
    for (const file of readdirSync(init)) {
      writeFileSync(join(init, file), readFileSync(join(init, file), 'utf8').replaceAll('drafts', 'new_posts'))
    }
    expect((await cli('migrate', 'apply', ...database.args)).stderr).toBe('')
    await database.query(insertPosts(['Hello', 'Hello']))
    await database.query(insertPosts(['Kept']).replace('posts', 'new_posts'))

    const before = JSON.parse(readFileSync(join(init, 'snapshot.json'), 'utf8')) as StorageSnapshot
    const posts = before.tables.find((table) => table.name === 'posts')!
    const uniquePosts = {
      ...posts,
      columns: posts.columns.map((column) => (column.name === 'title' ? { ...column, unique: true } : column)),
    }
    const sources = Object.fromEntries(
      posts.columns.map(({ name }) => [name, { kind: 'column', column: name } as const]),
    )
    const after = { ...before, tables: before.tables.map((table) => (table === posts ? uniquePosts : table)) }
    const sql = renderMigrationSql(
      { before, after, changes: [{ before: posts, after: uniquePosts, sources }], dataLoss: [] },
      'sqlite',
    )
    expect(sql).toContain('create table "new_posts_2"')
    expect(sql).toContain('alter table "new_posts_2" rename to "posts"')
    writeMigration(join(database.directory, 'migrations'), '0002_unique_titles', { sqlite: sql, postgres: '' })

    const failed = await cli('migrate', 'apply', ...database.args)
    expect(failed.stderr).toContain('UNIQUE constraint failed: new_posts_2.title')
    expect(failed.stderr).toContain('The column is to be unique, but "posts"."title" holds "Hello" in 2 rows.')
    await database.query(`delete from posts where id = 2`)
    expect((await cli('migrate', 'apply', ...database.args)).stderr).toBe('')
    expect(await database.tableNames()).toEqual(['new_posts', 'posts', 'restmint_migrations'])
    expect(await database.query('select title from new_posts')).toEqual([{ title: 'Kept' }])
    await expect(database.query(insertPosts(['Hello']))).rejects.toThrow('UNIQUE constraint failed: posts.title')
  })
})
