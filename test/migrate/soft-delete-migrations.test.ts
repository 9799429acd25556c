import { afterEach, describe, expect, it } from 'vitest'
import { DIALECTS } from '../support/test-postgres.js'
import { disposeMigrationProjects, startMigrationProject } from './start-migration-project.js'

/**
 * Issue 17's change kinds, end to end on each database as in
 * change-kinds.test.ts: `soft_delete: true` added (deleted_at, the unique
 * slug made partial) with `on_delete: set_null`, and removed again (data
 * loss). Each migrated database equals a fresh one prepared for the new
 * manifest (MigrationProject.migrate checks it).
 */
afterEach(() => disposeMigrationProjects())

const BLOG = `  authors:
    fields:
      name: { type: string, required: true }
  posts:
    relations:
      author: { resource: authors }
    fields:
      title: { type: string, required: true }
      slug: { type: string, required: true, unique: true }
`
const SOFT_BLOG = BLOG.replace('  posts:\n', '  posts:\n    soft_delete: true\n').replace(
  'author: { resource: authors }',
  'author: { resource: authors, on_delete: set_null }',
)
const ROWS = {
  authors: [{ name: 'Ada' }],
  posts: [
    { title: 'First', slug: 'first', author_id: 1 },
    { title: 'Second', slug: 'second', author_id: null },
  ],
}

const post = (url: string, payload: object) => ({ method: 'POST' as const, url, payload })

/** Posts whose (author_id, title) pair is unique: a composite unique, before or after soft_delete. */
const PAIRED_BLOG = BLOG.replace(
  'slug: { type: string, required: true, unique: true }\n',
  'slug: { type: string, required: true, unique: true }\n    unique: [[author_id, title]]\n',
)
const SOFT_PAIRED_BLOG = SOFT_BLOG.replace(
  'slug: { type: string, required: true, unique: true }\n',
  'slug: { type: string, required: true, unique: true }\n    unique: [[author_id, title]]\n',
)

describe.each(DIALECTS)('%s: soft delete migrations', (dialect) => {
  it('adds soft_delete (deleted_at, unique among live rows) and on_delete: set_null', async () => {
    const project = await startMigrationProject(dialect, BLOG, ROWS)
    const served = await project.migrate(SOFT_BLOG)
    expect(await served.list('posts')).toEqual(project.seeded.posts!.map((row) => ({ ...row, deleted_at: null })))
    expect((await served.send({ method: 'DELETE', url: '/v1/posts/1' })).status).toBe(204)
    expect((await served.send(post('/v1/posts', { title: 'Again', slug: 'first' }))).status).toBe(201)
    expect((await served.send(post('/v1/posts', { title: 'Twice', slug: 'first' }))).status).toBe(409)
    expect((await served.send({ method: 'DELETE', url: '/v1/authors/1' })).status).toBe(204)
  })

  it('renames a unique field of a soft-deleting resource, its live-row unique index with it', async () => {
    const project = await startMigrationProject(dialect, SOFT_BLOG, ROWS)
    const served = await project.migrate(
      SOFT_BLOG.replace(
        'slug: { type: string, required: true, unique: true }',
        'handle: { type: string, required: true, unique: true, renamed_from: slug }',
      ),
    )
    expect((await served.list('posts')).map((row) => row.handle)).toEqual(['first', 'second'])
    expect((await served.send(post('/v1/posts', { title: 'Twice', handle: 'first' }))).status).toBe(409)
  })

  it('removes soft_delete only with --allow-data-loss: deleted_at goes, unique holds over every row again', async () => {
    const project = await startMigrationProject(dialect, SOFT_BLOG, ROWS)
    expect(await project.refuse(BLOG)).toContain(
      'error MIGRATION_DATA_LOSS: column deleted_at is no longer in resource "posts"',
    )
    const served = await project.migrate(BLOG, '--allow-data-loss')
    expect(served.applied).toContain('  DATA LOSS: column posts.deleted_at (all its values)')
    expect((await served.list('posts')).map((row) => row.slug)).toEqual(['first', 'second'])
    expect((await served.send(post('/v1/posts', { title: 'Again', slug: 'first' }))).status).toBe(409)
  })

  it.each([
    ['adding soft_delete to a table with a composite unique', PAIRED_BLOG],
    ['adding a composite unique to a soft-deleting table', SOFT_BLOG],
  ])('%s makes the composite unique hold among live rows', async (_, before) => {
    const project = await startMigrationProject(dialect, before, ROWS)
    const served = await project.migrate(SOFT_PAIRED_BLOG)
    if (before === PAIRED_BLOG) {
      expect(served.created.stdout).toContain(
        'unique constraints become partial (among live rows only: WHERE deleted_at IS NULL)',
      )
    }
    expect((await served.send(post('/v1/posts', { title: 'First', slug: 'third', author_id: 1 }))).status).toBe(409)
    expect((await served.send({ method: 'DELETE', url: '/v1/posts/1' })).status).toBe(204)
    expect((await served.send(post('/v1/posts', { title: 'First', slug: 'third', author_id: 1 }))).status).toBe(201)
    expect((await served.send(post('/v1/posts', { title: 'First', slug: 'fourth', author_id: 1 }))).status).toBe(409)
  })

  it('removing soft_delete makes a composite unique hold over every row again', async () => {
    const project = await startMigrationProject(dialect, SOFT_PAIRED_BLOG, ROWS)
    const served = await project.migrate(PAIRED_BLOG, '--allow-data-loss')
    expect(served.created.stdout).toContain('unique constraints hold over every row again, deleted ones included')
    expect((await served.send(post('/v1/posts', { title: 'First', slug: 'third', author_id: 1 }))).status).toBe(409)
  })
})
