/**
 * `migrate create` and `check` over migrations directories left in states
 * that `migrate create` itself never writes: a snapshot.json edited into the
 * wrong shape, and a last migration numbered 9999; and a manifest default
 * no column can store.
 */
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { manifestOf } from '../migrate/storage-of.js'
import { runCli } from '../support/run-cli.js'

const POSTS = `  posts:
    fields:
      title: { type: string, required: true }
`
const WITH_SUMMARY = `${POSTS}      summary: { type: string }
`

describe('migrate create over a hostile migrations directory', () => {
  let project: string
  afterEach(() => rmSync(project, { recursive: true, force: true }))

  /** A project whose first migration is created, with the manifest then edited to `resources`. */
  async function startProject(resources: string): Promise<string> {
    project = mkdtempSync(join(tmpdir(), 'restmint-hostile-create-'))
    writeFileSync(join(project, 'resources.yaml'), manifestOf(POSTS))
    expect((await runCli(project, 'migrate', 'create')).exitCode).toBe(0)
    writeFileSync(join(project, 'resources.yaml'), manifestOf(resources))
    return join(project, 'migrations')
  }

  it.each([
    [
      'a table without columns',
      { restmint_snapshot: 1, tables: [{ name: 'posts', indexes: [] }] },
      'tables[0] ("posts") needs a "columns" list',
    ],
    ['a table that is no object', { restmint_snapshot: 1, tables: [1] }, 'tables[0] needs a "name"'],
    [
      'a column without a type',
      { restmint_snapshot: 1, tables: [{ name: 'posts', columns: [{ name: 'id' }], indexes: [] }] },
      'tables[0].columns[0] of table "posts" needs a "type" among string, integer, number, boolean, date, datetime, decimal, json, array',
    ],
  ])('names the key of a snapshot.json with %s, in create and check', async (_, snapshot, problem) => {
    const migrations = await startProject(WITH_SUMMARY)
    const file = join(migrations, '0001_init', 'snapshot.json')
    writeFileSync(file, JSON.stringify(snapshot))
    const message =
      `restmint: ${file} is not a restmint snapshot: ${problem}; restore it from version control ` +
      '(every migration needs the snapshot.json that migrate create wrote)\n'

    const created = await runCli(project, 'migrate', 'create')
    expect(created).toMatchObject({ exitCode: 1, stderr: message })
    expect(readdirSync(migrations)).toEqual(['0001_init'])
    const checked = await runCli(project, 'check')
    expect(checked.exitCode).toBe(1)
    expect(checked.stderr).toContain(message)
  })

  it('refuses to number a migration 10000, which no command could read back', async () => {
    const migrations = await startProject(WITH_SUMMARY)
    renameSync(join(migrations, '0001_init'), join(migrations, '9999_init'))

    const created = await runCli(project, 'migrate', 'create')
    expect(created.exitCode).toBe(1)
    expect(created.stderr).toBe(
      'restmint: migrations/9999_init is numbered 9999, so the next migration would be 10000, but a migration ' +
        'number has 4 digits; if no database has applied 9999_init yet, renumber it right after the migration ' +
        'before it, then run restmint migrate create again. Nothing was written.\n',
    )
    expect(readdirSync(migrations)).toEqual(['9999_init'])
    expect(readFileSync(join(migrations, '9999_init', 'sqlite.sql'), 'utf8')).toContain('create table "posts"')
  })

  it('refuses a string default holding a NUL character with its position, not a stack trace', async () => {
    const migrations = await startProject(`${POSTS}      summary: { type: string, default: "a\\0b" }\n`)

    const created = await runCli(project, 'migrate', 'create')
    expect(created.exitCode).toBe(1)
    expect(created.stderr).toBe(
      'resources.yaml:8:41: error DEFAULT_TYPE: default "a\\u0000b" of field "summary" contains a NUL character ' +
        '(U+0000), which no string field can store; remove it\n' +
        '        summary: { type: string, default: "a\\0b" }\n' +
        '                                          ^^^^^^\n' +
        'resources.yaml: 1 error; nothing was written.\n',
    )
    expect(readdirSync(migrations)).toEqual(['0001_init'])
  })

  it('names a --migrations path that is a file, not a stack trace', async () => {
    await startProject(WITH_SUMMARY)
    const created = await runCli(project, 'migrate', 'create', '--migrations', 'resources.yaml')
    expect(created).toMatchObject({
      exitCode: 1,
      stderr:
        `restmint: ${join(project, 'resources.yaml')} is not a directory (a file stands there, or on the way to it), ` +
        'and restmint migrate create writes into a directory there; move the file, or pass another directory\n',
    })
  })

  it('names a migration that adds a column and renames another update_<table>, not add_<table>_<column>', async () => {
    const migrations = await startProject(
      `  posts:\n    fields:\n      heading: { type: string, required: true, renamed_from: title }\n      summary: { type: string }\n`,
    )
    const created = await runCli(project, 'migrate', 'create')
    expect(created.stdout).toBe(
      'Created migrations/0002_rename_posts_title_to_heading_add_posts_summary/ (review it, then commit it):\n  posts: rename title to heading, add summary\n',
    )
    expect(readdirSync(migrations)).toEqual(['0001_init', '0002_rename_posts_title_to_heading_add_posts_summary'])
  })

  it.each([
    [
      'a --backfill',
      '      slug: { type: string, required: true, unique: true }\n',
      ['--backfill', 'posts.slug=x'],
      '"x"',
    ],
    ['a default', '      slug: { type: string, unique: true, default: x }\n', [], '"x"'],
  ])('warns that a unique column added with %s gives every row one value', async (_, field, args, value) => {
    await startProject(POSTS + field)
    const created = await runCli(project, 'migrate', 'create', ...args)
    expect(created.exitCode, created.stderr).toBe(0)
    expect(created.stdout).toBe(
      'Created migrations/0002_add_posts_slug/ (review it, then commit it):\n  posts: add slug\n' +
        `  warning: posts.slug is unique, but existing rows all get ${value} there, so apply fails when two rows ` +
        'or more do; edit the SQL files to give each row its own value before applying\n',
    )
  })
})
