import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MIGRATION_SQL_FILES } from '../../runtime/migrations/migration-files.js'
import type { Row } from '../../runtime/contract/table-definition.js'
import { DIALECTS } from '../support/test-postgres.js'
import { disposeMigrationProjects, startMigrationProject } from './start-migration-project.js'
import { readSchemaShape } from './read-schema-shape.js'

/**
 * Issue 8's change kinds, end to end on each database: a project at the
 * `before` manifest (its first migration applied, rows written), the
 * manifest edited, `migrate create`, the applier, then the new manifest's
 * API served over that database, reading every old row back and writing new
 * ones. Each migrated database must equal a fresh one prepared for the new
 * manifest (MigrationProject.migrate checks it).
 */
afterEach(() => disposeMigrationProjects())

const AUTHORS = `  authors:
    fields:
      name: { type: string, required: true, unique: true }
`
const POSTS = `  posts:
    relations:
      author: { resource: authors, required: true }
    fields:
      title: { type: string, required: true }
      price: { type: integer }
      published: { type: boolean, default: false }
`
const BLOG = AUTHORS + POSTS
const AUTHOR_ROWS = { authors: [{ name: 'Ada' }, { name: 'Grace' }] }
const BLOG_ROWS = {
  ...AUTHOR_ROWS,
  posts: [
    { title: 'First', price: 10, author_id: 1, published: true },
    { title: 'Second', price: null, author_id: 2, published: false },
  ],
}

const post = (url: string, payload: object) => ({ method: 'POST' as const, url, payload })
const patch = (url: string, payload: object) => ({
  method: 'PATCH' as const,
  url,
  payload: JSON.stringify(payload),
  headers: { 'content-type': 'application/merge-patch+json' },
})

describe.each(DIALECTS)('%s: change kinds', (dialect) => {
  it('adds a resource with its foreign key (on_delete cascade) and indexes', async () => {
    const project = await startMigrationProject(dialect, BLOG, BLOG_ROWS)
    const served = await project.migrate(
      `${BLOG}  comments:
    relations:
      post: { resource: posts, required: true, on_delete: cascade }
    fields:
      body: { type: string, required: true, max_length: 100 }
    sort: [body]
`,
    )
    expect(served.created.stdout).toBe(
      'Created migrations/0002_add_comments/ (review it, then commit it):\n  create table comments\n',
    )
    expect(await served.list('posts')).toEqual(project.seeded.posts)
    const comment = await served.send(post('/v1/comments', { body: 'Nice', post_id: 1 }))
    expect(comment.status).toBe(201)
    expect((await served.send({ method: 'DELETE', url: '/v1/posts/1' })).status).toBe(204)
    expect((await served.send({ method: 'GET', url: `/v1/comments/${comment.body.data.id}` })).status).toBe(404)
  })

  it('removes a resource only with --allow-data-loss', async () => {
    const project = await startMigrationProject(
      dialect,
      `${AUTHORS}  tags:\n    fields:\n      label: { type: string }\n`,
      {
        ...AUTHOR_ROWS,
        tags: [{ label: 'x' }],
      },
    )
    const refused = await project.refuse(AUTHORS)
    expect(refused).toContain('MIGRATION_DATA_LOSS')
    expect(refused).toContain('tags')

    const served = await project.migrate(AUTHORS, '--allow-data-loss')
    expect(served.applied.some((line) => line.includes('DATA LOSS') && line.includes('tags'))).toBe(true)
    expect(await served.list('authors')).toEqual(project.seeded.authors)
    expect((await served.send({ method: 'GET', url: '/v1/tags' })).status).toBe(404)
  })

  it('adds an optional field, and required ones from a default or a --backfill (refused without)', async () => {
    const project = await startMigrationProject(dialect, BLOG, BLOG_ROWS)
    const after = `${BLOG}      summary: { type: string }
      status: { type: string, default: "it's new" }
      kind: { type: string, required: true, default: article }
      rating: { type: number, required: true }
`
    const refused = await project.refuse(after)
    expect(refused).toContain(
      'error MIGRATION_VALUE_NEEDED: field "rating" of resource "posts" is added as NOT NULL (required, without a default), so the rows already in table posts need a value for it: give it a default in the manifest, or pass --backfill posts.rating=<value>',
    )
    expect(refused).not.toMatch(/"status"|"kind"/)

    const served = await project.migrate(after, '--backfill', 'posts.rating=2.5')
    expect(await served.list('posts')).toEqual(
      project.seeded.posts!.map((row) => ({ ...row, summary: null, status: "it's new", kind: 'article', rating: 2.5 })),
    )
    const added = await served.send(post('/v1/posts', { title: 'Third', author_id: 1, kind: 'note', rating: 1 }))
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.data).toMatchObject({ summary: null, status: "it's new", kind: 'note', rating: 1 })
    expect((await served.send(post('/v1/posts', { title: 'Fourth', author_id: 1 }))).status).toBe(400)
  })

  it('removes a field only with --allow-data-loss', async () => {
    const project = await startMigrationProject(dialect, BLOG, BLOG_ROWS)
    const after = BLOG.replace('      price: { type: integer }\n', '')
    const refused = await project.refuse(after)
    expect(refused).toContain(
      'error MIGRATION_DATA_LOSS: column price is no longer in resource "posts": the migration drops it from table posts with all its values',
    )

    const served = await project.migrate(after, '--allow-data-loss')
    expect(served.applied).toContain('  DATA LOSS: column posts.price (all its values)')
    expect(await served.list('posts')).toEqual(project.seeded.posts!.map(({ price: _price, ...row }) => row))
  })

  it('renames a field with renamed_from, keeping its values and unique constraint (without it: did you mean)', async () => {
    const project = await startMigrationProject(dialect, `${AUTHORS}    sort: [name]\n`, AUTHOR_ROWS)
    const renamed = `  authors:
    fields:
      full_name: { type: string, required: true, unique: true }
    sort: [full_name]
`
    const refused = await project.refuse(renamed)
    expect(refused).toContain('did you mean renamed_from: name on field "full_name" of resource "authors"?')

    const served = await project.migrate(renamed.replace('unique: true', 'unique: true, renamed_from: name'))
    expect(served.created.stdout).toContain('rename name to full_name')
    expect(await served.list('authors')).toEqual(
      project.seeded.authors!.map(({ name, ...row }) => ({ ...row, full_name: name })),
    )
    expect((await served.send(post('/v1/authors', { full_name: 'Linus' }))).body.data.id).toBe(3)
    expect((await served.send(post('/v1/authors', { full_name: 'Ada' }))).status).toBe(409)
  })

  it('renames a resource with renamed_from, keeping its ids and the foreign keys to it', async () => {
    const project = await startMigrationProject(dialect, BLOG, BLOG_ROWS)
    const writers = BLOG.replace('  authors:\n', '  writers:\n').replace('resource: authors', 'resource: writers')
    const refused = await project.refuse(writers)
    expect(refused).toContain(
      'error MIGRATION_DATA_LOSS: resource "authors" is no longer in the manifest: the migration drops table authors with all its rows; if it was renamed, declare it: did you mean renamed_from: authors on resource "writers"?',
    )

    const served = await project.migrate(writers.replace('  writers:\n', '  writers:\n    renamed_from: authors\n'))
    expect(await served.list('writers')).toEqual(project.seeded.authors)
    expect(await served.list('posts')).toEqual(project.seeded.posts)
    expect((await served.send({ method: 'DELETE', url: '/v1/writers/1' })).status).toBe(409)
    expect((await served.send(post('/v1/writers', { name: 'Linus' }))).body.data.id).toBe(3)
  })

  it('makes a field NOT NULL over NULLs only with a --backfill, and another one nullable', async () => {
    const project = await startMigrationProject(dialect, BLOG, BLOG_ROWS)
    const after = BLOG.replace('price: { type: integer }', 'price: { type: integer, required: true }').replace(
      'title: { type: string, required: true }',
      'title: { type: string, required: true, nullable: true }',
    )
    const refused = await project.refuse(after)
    expect(refused).toContain('MIGRATION_VALUE_NEEDED')
    expect(refused).toContain('--backfill posts.price=<value>')

    const served = await project.migrate(after, '--backfill', 'posts.price=0')
    expect(await served.list('posts')).toEqual(project.seeded.posts!.map((row) => ({ ...row, price: row.price ?? 0 })))
    const untitled = await served.send(post('/v1/posts', { title: null, price: 1, author_id: 1 }))
    expect(untitled.status).toBe(201)
    expect(untitled.body.data.title).toBeNull()
  })

  it('adds unique to one field and removes it from another', async () => {
    const before = `  authors:
    fields:
      name: { type: string, required: true }
      email: { type: string, required: true, unique: true }
`
    const project = await startMigrationProject(dialect, before, {
      authors: [
        { name: 'Ada', email: 'a@example.com' },
        { name: 'Grace', email: 'g@example.com' },
      ],
    })
    const served = await project.migrate(
      before
        .replace('name: { type: string, required: true }', 'name: { type: string, required: true, unique: true }')
        .replace('email: { type: string, required: true, unique: true }', 'email: { type: string, required: true }'),
    )
    expect(await served.list('authors')).toEqual(project.seeded.authors)
    expect((await served.send(post('/v1/authors', { name: 'Ada', email: 'x@example.com' }))).status).toBe(409)
    expect((await served.send(post('/v1/authors', { name: 'Linus', email: 'a@example.com' }))).status).toBe(201)
  })

  it('adds a composite unique (issue 17): equal to a fresh database, 409 naming both fields', async () => {
    const project = await startMigrationProject(dialect, BLOG, BLOG_ROWS)
    const unique = BLOG.replace(
      '      published: { type: boolean, default: false }\n',
      (line) => `${line}    unique: [[author_id, title]]\n`,
    )
    const served = await project.migrate(unique)
    expect(await served.list('posts')).toEqual(project.seeded.posts)
    const again = await served.send(post('/v1/posts', { title: 'First', author_id: 1 }))
    expect(again.status).toBe(409)
    expect(again.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(['/author_id', '/title'])
    expect((await served.send(post('/v1/posts', { title: 'First', author_id: 2 }))).status).toBe(201)
  })

  it('widens types (integer → number, date → string, …) keeping every value as the API wrote it', async () => {
    const numbers = [1.5, 3, -0.25, 0.1 + 0.2, 1e-7, 123456.789, -0]
    const before = `  samples:
    fields:
      tally: { type: integer, required: true }
      amount: { type: number, required: true }
      flag: { type: boolean, required: true }
      day: { type: date, required: true }
      day_text: { type: date, required: true }
      moment: { type: datetime, required: true }
      count_text: { type: integer, required: true }
`
    const after = before
      .replace('tally: { type: integer', 'tally: { type: number')
      .replace('amount: { type: number', 'amount: { type: string')
      .replace('flag: { type: boolean', 'flag: { type: string')
      .replace('day: { type: date', 'day: { type: datetime')
      .replace('day_text: { type: date', 'day_text: { type: string')
      .replace('moment: { type: datetime', 'moment: { type: string')
      .replace('count_text: { type: integer', 'count_text: { type: string')
    const project = await startMigrationProject(dialect, before, {
      samples: numbers.map((amount, index) => ({
        tally: 40 + index,
        amount,
        flag: index % 2 === 0,
        day: `2026-11-2${index}`,
        day_text: `0099-01-0${index + 1}`,
        moment: `2026-11-24T10:00:0${index}.5+02:00`,
        count_text: -index * 1000,
      })),
    })
    const served = await project.migrate(after)
    expect(await served.list('samples')).toEqual(
      project.seeded.samples!.map((row, index) => ({
        ...row,
        tally: 40 + index,
        amount: String(numbers[index]),
        flag: String(index % 2 === 0),
        day: `2026-11-2${index}T00:00:00.000Z`,
        moment: `2026-11-24T08:00:0${index}.500Z`,
        count_text: String(-index * 1000),
      })),
    )
  })

  it('narrows types only with --allow-data-loss: values that convert are kept, the others become NULL or the backfill', async () => {
    const before = `  samples:
    fields:
      code: { type: string }
      ratio: { type: number, required: true }
      answer: { type: string }
      day: { type: string }
      moment: { type: string }
      seen: { type: datetime, required: true }
      level: { type: string, required: true }
`
    const after = `  samples:
    fields:
      code: { type: integer }
      ratio: { type: integer }
      answer: { type: boolean }
      day: { type: date }
      moment: { type: datetime }
      seen: { type: date, required: true }
      level: { type: number, required: true }
`
    const project = await startMigrationProject(dialect, before, {
      samples: [
        {
          code: '42',
          ratio: 3,
          answer: 'true',
          day: '2026-02-28',
          moment: '2026-11-24T10:00:00+02:00',
          seen: '2026-11-24T23:30:00-02:00',
          level: '1.5e2',
        },
        {
          code: 'abc',
          ratio: 1.5,
          answer: 'yes',
          day: '2026-02-30',
          moment: 'soon',
          seen: '2026-11-24T00:00:00Z',
          level: 'high',
        },
        {
          code: '-9007199254740991',
          ratio: -2,
          answer: 'false',
          day: '0000-01-01',
          moment: '2026-11-24 10:00:00Z',
          seen: '2026-11-24T00:00:00Z',
          level: '7',
        },
      ],
    })
    const refused = await project.refuse(after)
    expect(refused).toContain('MIGRATION_DATA_LOSS')
    expect(refused).toContain('code')

    const unfilled = await project.refuse(after, '--allow-data-loss')
    expect(unfilled).toContain(
      'error MIGRATION_VALUE_NEEDED: field "level" of resource "samples" is NOT NULL and changes type from string to number, so rows of table samples whose values do not convert need a value',
    )
    expect(unfilled).not.toContain('"ratio"')

    const served = await project.migrate(
      after,
      '--allow-data-loss',
      '--backfill',
      'samples.level=-1',
      '--backfill',
      'samples.seen=2000-01-01',
    )
    const converted = (await served.list('samples')).map(({ id: _id, created_at: _c, updated_at: _u, ...row }) => row)
    expect(converted).toEqual([
      {
        code: 42,
        ratio: 3,
        answer: true,
        day: '2026-02-28',
        moment: '2026-11-24T08:00:00.000Z',
        seen: '2026-11-25',
        level: 150,
      },
      { code: null, ratio: null, answer: null, day: null, moment: null, seen: '2026-11-24', level: -1 },
      {
        code: -9007199254740991,
        ratio: -2,
        answer: false,
        day: null,
        moment: '2026-11-24T10:00:00.000Z',
        seen: '2026-11-24',
        level: 7,
      },
    ])
  })

  it('adds a relation, removes one (with --allow-data-loss) and changes on_delete', async () => {
    const before = BLOG.replace(
      '    fields:\n      title',
      '      editor: { resource: authors }\n    fields:\n      title',
    )
    const after = BLOG.replace(
      'required: true }\n    fields',
      'required: true, on_delete: cascade }\n      reviewer: { resource: authors }\n    fields',
    )
    const project = await startMigrationProject(dialect, before, {
      ...AUTHOR_ROWS,
      posts: BLOG_ROWS.posts.map((row) => ({ ...row, editor_id: 2 })),
    })
    const served = await project.migrate(after, '--allow-data-loss')
    expect(served.created.stderr).toContain(
      'warning MIGRATION_DATA_LOSS: column editor_id is no longer in resource "posts"',
    )
    expect(served.created.stdout).toContain('  posts: alter author_id, add reviewer_id, drop editor_id\n')
    expect(served.applied).toContain('  DATA LOSS: column posts.editor_id (all its values)')
    expect(await served.list('posts')).toEqual(
      project.seeded.posts!.map(({ editor_id: _editor, ...row }) => ({ ...row, reviewer_id: null })),
    )
    expect((await served.send(patch('/v1/posts/2', { reviewer_id: 1 }))).status).toBe(200)
    expect((await served.send({ method: 'DELETE', url: '/v1/authors/1' })).status).toBe(409)
    expect((await served.send(patch('/v1/posts/2', { reviewer_id: null }))).status).toBe(200)
    expect((await served.send({ method: 'DELETE', url: '/v1/authors/1' })).status).toBe(204)
    expect((await served.list('posts')).map((row) => row.title)).toEqual(['Second'])
  })

  it('adds and drops indexes when the sort and filter whitelists change', async () => {
    const blog = BLOG.replace(
      'title: { type: string, required: true }',
      'title: { type: string, required: true, max_length: 100 }',
    )
    const project = await startMigrationProject(dialect, `${blog}    sort: [price]\n`, BLOG_ROWS)
    const served = await project.migrate(`${blog}    sort: [title]\n    filter: { published: [eq] }\n`)
    expect(served.created.stdout).toBe(
      'Created migrations/0002_change_posts_indexes/ (review it, then commit it):\n  posts: change indexes\n',
    )
    const sql = readFileSync(
      join(project.database.directory, 'migrations/0002_change_posts_indexes', MIGRATION_SQL_FILES[dialect]),
      'utf8',
    )
    // Sorting by title seeks on (title, id); filters no longer allowed lose their indexes.
    expect(sql.split('\n')[0]).toBe(
      '-- restmint migration: alter table posts: index (title, id), drop index (price, id), drop index (title), drop index (created_at), drop index (updated_at)',
    )
    expect(await served.list('posts')).toEqual(project.seeded.posts)
    const sorted = await served.send({ method: 'GET', url: '/v1/posts?sort=-title&filter[published][eq]=false' })
    expect(sorted.status, JSON.stringify(sorted.body)).toBe(200)
    expect(sorted.body.data.map((row: Row) => row.title)).toEqual(['Second'])
  })

  it('never reuses the id of a row deleted before a migration that rebuilds the table', async () => {
    const project = await startMigrationProject(dialect, BLOG, BLOG_ROWS, { posts: [2] })
    // A changed default: SQLite rebuilds the table.
    const served = await project.migrate(BLOG.replace('default: false', 'default: true'))
    const added = await served.send(post('/v1/posts', { title: 'New', author_id: 1 }))
    expect(added.body.data).toMatchObject({ id: 3, published: true })
  })

  it('needs no migration for enum, minimum/maximum, pattern and length changes', async () => {
    const before = `  posts:
    fields:
      title: { type: string, required: true, max_length: 200 }
      status: { type: string, enum: [draft, live] }
      price: { type: integer, minimum: 0 }
      code: { type: string, pattern: '^[a-z]+$', min_length: 1, max_length: 20 }
`
    const project = await startMigrationProject(dialect, before, {
      posts: [{ title: 'First', status: 'draft', price: 1, code: 'abc' }],
    })
    const after = `  posts:
    fields:
      title: { type: string, required: true, max_length: 5 }
      status: { type: string, enum: [draft, live, gone] }
      price: { type: integer, minimum: 1, maximum: 9 }
      code: { type: string, pattern: '^[a-z0-9]+$', min_length: 2, max_length: 9 }
`
    const created = await project.create(after)
    expect(created).toEqual({
      exitCode: 0,
      stdout: 'migrations/ is up to date with resources.yaml: nothing to migrate.\n',
      stderr: '',
    })
    expect(readdirSync(join(project.database.directory, 'migrations'))).toEqual(['0001_init'])
    expect(await project.apply()).toEqual([])
  })

  it('fails adding unique over duplicates at apply, naming them, and leaves the database as it was', async () => {
    const before = `  authors:\n    fields:\n      name: { type: string, required: true }\n`
    const project = await startMigrationProject(dialect, before, {
      authors: [{ name: 'Ada' }, { name: 'Grace' }, { name: 'Ada' }],
    })
    const shape = await readSchemaShape(project.database)
    expect((await project.create(AUTHORS)).exitCode).toBe(0)

    const failure = await project.apply().then(
      () => null,
      (error: Error) => error,
    )
    expect(failure?.message).toMatch(/^migration 0002_alter_authors_name failed and was rolled back/)
    expect(await readSchemaShape(project.database)).toEqual(shape)
    expect(await project.database.query('select name from authors order by id')).toEqual([
      { name: 'Ada' },
      { name: 'Grace' },
      { name: 'Ada' },
    ])
    expect(await project.database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])
    // Both dialects name the duplicated values, not only the constraint.
    expect(failure?.message).toContain('Ada')
  })
})
