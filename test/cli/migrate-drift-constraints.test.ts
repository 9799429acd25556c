/**
 * Issue 18, item 8: a CHECK added by hand left `migrate status` at "up to
 * date" and `serve` starting, and then turned a POST into a 500
 * internal_error. The drift check reports it (PostgreSQL's pg_constraint;
 * SQLite's CREATE TABLE text, which no pragma lists), and a write the
 * database refuses for a constraint the manifest does not declare is a 409
 * constraint_violation naming it.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { findCheckConstraints } from '../../runtime/storage/find-check-constraints.js'
import { createMigrationDatabase, type MigrationDatabase } from '../migrate/migration-database.js'
import { loadManifestApi } from '../migrate/load-manifest-api.js'
import { manifestOf } from '../migrate/storage-of.js'
import { injectJson } from '../support/inject-json.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS } from '../support/test-postgres.js'

const AUTHORS = '  authors:\n    fields:\n      name: { type: string, required: true }\n'

/** Adds `check (condition)` named `name` to `table` by hand: ALTER TABLE on PostgreSQL, a table rebuild on SQLite. */
async function addCheck(database: MigrationDatabase, table: string, name: string, condition: string): Promise<void> {
  if (database.dialect === 'postgres') {
    await database.query(`alter table ${table} add constraint ${name} check (${condition})`)
    return
  }
  await rebuildSqliteTable(database, table, (sql) =>
    sql.replace(/\)\s*$/, `, constraint ${name} check (${condition}))`),
  )
}

/** Rebuilds an SQLite table from its CREATE TABLE statement edited by `edit`, as SQLite's ALTER TABLE cannot. */
async function rebuildSqliteTable(database: MigrationDatabase, table: string, edit: (sql: string) => string) {
  const [{ sql }] = (await database.query<{ sql: string }>(
    `select sql from sqlite_master where type = 'table' and name = '${table}'`,
  )) as [{ sql: string }]
  await database.query(edit(sql).replace(/^CREATE TABLE "?\w+"?/i, `create table "${table}_rebuilt"`))
  await database.query(`insert into "${table}_rebuilt" select * from "${table}"`)
  await database.query(`drop table "${table}"`)
  await database.query(`alter table "${table}_rebuilt" rename to "${table}"`)
}

describe.each(DIALECTS)('%s: a CHECK constraint added by hand', (dialect) => {
  let database: MigrationDatabase
  let app: FastifyInstance | undefined
  afterEach(async () => {
    await app?.close()
    app = undefined
    await database.dispose()
  })

  const cli = (...args: string[]) => runCli(database.directory, ...args)

  it('is drift: migrate status exits 1 naming it, serve refuses to start', async () => {
    database = createMigrationDatabase(dialect)
    writeFileSync(join(database.directory, 'resources.yaml'), manifestOf(AUTHORS))
    expect((await cli('generate')).exitCode).toBe(0)
    expect((await cli('migrate', 'create')).exitCode).toBe(0)
    expect((await cli('migrate', 'apply', ...database.args)).exitCode).toBe(0)
    await addCheck(database, 'authors', 'authors_name_check', 'length(name) > 3')

    const expression = dialect === 'postgres' ? 'CHECK ((length(name) > 3))' : 'length(name) > 3'
    const difference =
      `table "authors": the database has a CHECK constraint "authors_name_check" (${expression}), ` +
      'which the manifest cannot declare; drop it'
    const status = await cli('migrate', 'status', ...database.args)
    expect(status.exitCode).toBe(1)
    expect(status.stderr).toContain(difference)
    expect(status.stdout).not.toContain('up to date')

    const serve = await cli('serve', ...database.args, '--port', '0')
    expect(serve.exitCode).toBe(1)
    expect(serve.stderr).toContain(difference)
  })

  it('makes a write it refuses a 409 constraint_violation naming it, not a 500; nothing is written', async () => {
    database = createMigrationDatabase(dialect)
    const api = await loadManifestApi(manifestOf(AUTHORS))
    app = await api.buildServer({ db: database.url, schema: database.schema, docs: false })
    expect((await injectJson(app, { method: 'POST', url: '/v1/authors', payload: { name: 'Grace' } })).status).toBe(201)
    await addCheck(database, 'authors', 'authors_name_check', 'length(name) > 3')

    const refused = await injectJson(app, { method: 'POST', url: '/v1/authors', payload: { name: 'Ada' } })
    expect(refused).toEqual({
      status: 409,
      body: expect.objectContaining({
        code: 'constraint_violation',
        status: 409,
        detail:
          'The database refused this write: CHECK constraint "authors_name_check" failed, ' +
          'a rule the API does not declare. Nothing was written.',
      }),
    })
    const replaced = await injectJson(app, { method: 'PUT', url: '/v1/authors/1', payload: { name: 'Al' } })
    expect(replaced.status).toBe(409)
    expect(replaced.body.code).toBe('constraint_violation')
    const list = await injectJson(app, { method: 'GET', url: '/v1/authors' })
    expect(list.body.data.map((author: { name: string }) => author.name)).toEqual(['Grace'])
  })
})

const TAGS =
  '  tags:\n    fields:\n      label: { type: string, default: blue }\n      weight: { type: number, default: 2.5 }\n'

describe.each(DIALECTS)('%s: a default changed by hand', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  it('is drift, while the defaults migrations write are not', async () => {
    database = createMigrationDatabase(dialect)
    const cli = (...args: string[]) => runCli(database.directory, ...args)
    writeFileSync(join(database.directory, 'resources.yaml'), manifestOf(TAGS))
    expect((await cli('generate')).exitCode).toBe(0)
    expect((await cli('migrate', 'create')).exitCode).toBe(0)
    expect((await cli('migrate', 'apply', ...database.args)).exitCode).toBe(0)
    expect((await cli('migrate', 'status', ...database.args)).exitCode).toBe(0)
    if (dialect === 'postgres') await database.query(`alter table tags alter column label set default 'red'`)
    else {
      await rebuildSqliteTable(database, 'tags', (sql) => sql.replace("'blue'", "'red'"))
    }

    const status = await cli('migrate', 'status', ...database.args)
    expect(status.exitCode).toBe(1)
    expect(status.stderr).toContain(
      `table "tags": column "label" has DEFAULT ${dialect === 'postgres' ? "'red'::text" : "'red'"} in the database, ` +
        `but the manifest declares default: "blue"; restore the column's default, or change the manifest`,
    )
  })
})

describe.each(DIALECTS)('%s: an index dropped or added by hand', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())
  const cli = (...args: string[]) => runCli(database.directory, ...args)

  it('is drift: migrate status exits 1 naming each index, and says up to date once they are restored', async () => {
    database = createMigrationDatabase(dialect)
    // Sorting by name indexes it; posts' author_id, a foreign key, is indexed too.
    const resources = `  authors:\n    fields:\n      name: { type: string }\n    sort: [name]\n  posts:\n    fields:\n      title: { type: string }\n    relations:\n      author: { resource: authors }\n`
    writeFileSync(join(database.directory, 'resources.yaml'), manifestOf(resources))
    expect((await cli('generate')).exitCode).toBe(0)
    expect((await cli('migrate', 'create')).exitCode).toBe(0)
    expect((await cli('migrate', 'apply', ...database.args)).exitCode).toBe(0)
    expect((await cli('migrate', 'status', ...database.args)).stdout).toContain('up to date')

    await database.query('drop index posts_author_id_idx')
    await database.query('create index authors_by_hand on authors (name)')
    const status = await cli('migrate', 'status', ...database.args)
    expect(status.exitCode).toBe(1)
    expect(status.stderr).toContain('table "posts": index "posts_author_id_idx" on (author_id) is missing')
    expect(status.stderr).toContain(
      'table "authors": index "authors_by_hand" exists in the database, but no migration creates it',
    )

    await database.query('drop index authors_by_hand')
    await database.query('create index posts_author_id_idx on posts (author_id)')
    expect((await cli('migrate', 'status', ...database.args)).stdout).toContain('up to date')
  })
})

describe('findCheckConstraints (SQLite, which lists no CHECK in any pragma)', () => {
  it('reads column and table checks, named or not, skipping strings, quoted names and comments', () => {
    const statement =
      `CREATE TABLE "t" ("id" integer primary key, "check" text check ("check" <> 'check (x)'), ` +
      `-- check (in a comment)\n n integer, constraint "n positive" check ((n > 0) and n < 9), CHECK(n <> 3))`
    expect(findCheckConstraints(statement)).toEqual([
      { name: null, expression: `"check" <> 'check (x)'` },
      { name: 'n positive', expression: '(n > 0) and n < 9' },
      { name: null, expression: 'n <> 3' },
    ])
  })
})
