import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { listMigrations } from '../../runtime/migrations/list-migrations.js'
import { runCli } from '../support/run-cli.js'
import { manifestOf, storageOf } from './storage-of.js'

// The SQL renderers are tested on their own; here each SQL file names its dialect and the tables it touches.
vi.mock('../../generator/migrate/render-migration-sql.js', () => {
  const renderMigrationSql = (
    plan: { changes: { before: { name: string } | null; after: { name: string } | null }[] },
    dialect: string,
  ) => `-- ${dialect}: ${plan.changes.map((change) => (change.after ?? change.before)!.name).join(', ')}\n`
  return {
    renderMigrationSql,
    renderMigrationFiles: (plan: Parameters<typeof renderMigrationSql>[0] & { after: unknown }) =>
      new Map([
        ['sqlite.sql', renderMigrationSql(plan, 'sqlite')],
        ['postgres.sql', renderMigrationSql(plan, 'postgres')],
        ['snapshot.json', `${JSON.stringify(plan.after, null, 2)}\n`],
      ]),
  }
})

const POSTS = `  posts:\n    fields:\n      title: { type: string, required: true }\n`

let project: string
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'restmint-migrate-create-'))
})
afterEach(() => rmSync(project, { recursive: true, force: true }))

const writeManifest = (resources: string) => writeFileSync(join(project, 'resources.yaml'), manifestOf(resources))
const migrationNames = () => readdirSync(join(project, 'migrations')).sort()
const create = (...args: string[]) => runCli(project, 'migrate', 'create', ...args)

describe('restmint migrate create', () => {
  it('writes the whole schema as 0001_init, then nothing while the manifest is unchanged', async () => {
    writeManifest(POSTS)
    const first = await create()
    expect(first.stderr).toBe('')
    expect(first.exitCode).toBe(0)
    expect(first.stdout).toBe(
      'Created migrations/0001_init/ (review it, then commit it):\n  create table posts\n' +
        '  note: migrations/0001_init creates every table. A database whose tables serve created without migrations ' +
        'needs its own schema as the first migration instead: remove migrations/0001_init/, run restmint migrate ' +
        'baseline --db <url> --from <the manifest it was created from>, then restmint migrate create again.\n',
    )
    expect(migrationNames()).toEqual(['0001_init'])
    const directory = join(project, 'migrations', '0001_init')
    expect(readdirSync(directory).sort()).toEqual(['postgres.sql', 'snapshot.json', 'sqlite.sql'])
    expect(readFileSync(join(directory, 'sqlite.sql'), 'utf8')).toBe('-- sqlite: posts\n')
    expect(readFileSync(join(directory, 'postgres.sql'), 'utf8')).toBe('-- postgres: posts\n')
    expect(readFileSync(join(directory, 'snapshot.json'), 'utf8')).toBe(
      `${JSON.stringify(storageOf(POSTS).snapshot, null, 2)}\n`,
    )

    const again = await create()
    expect(again).toEqual({
      exitCode: 0,
      stdout: 'migrations/ is up to date with resources.yaml: nothing to migrate.\n',
      stderr: '',
    })
    expect(migrationNames()).toEqual(['0001_init'])
  })

  it('numbers the next migration and names it after its change, or --name', async () => {
    writeManifest(POSTS)
    await create()
    writeManifest(`${POSTS}      summary: { type: string }\n`)
    expect((await create()).stdout).toBe(
      'Created migrations/0002_add_posts_summary/ (review it, then commit it):\n  posts: add summary\n',
    )
    writeManifest(`${POSTS}  reviews: {}\n`)
    expect((await create('--allow-data-loss', '--name', 'reviews_instead')).exitCode).toBe(0)
    expect(migrationNames()).toEqual(['0001_init', '0002_add_posts_summary', '0003_reviews_instead'])
    const third = readFileSync(join(project, 'migrations', '0003_reviews_instead', 'sqlite.sql'), 'utf8')
    expect(third).toBe('-- sqlite: posts, reviews\n')
  })

  it('normalises --name to a slug, and refuses one with no letter or digit (usage error)', async () => {
    writeManifest(POSTS)
    const refused = await create('--name', '--- ***')
    expect(refused.exitCode).toBe(2)
    expect(refused.stderr).toContain(
      "option '--name <name>' argument '--- ***' is invalid. name it with letters or digits",
    )
    expect(existsSync(join(project, 'migrations'))).toBe(false)

    const created = await create('--name', 'Add-Talk abstract')
    expect(created.exitCode).toBe(0)
    expect(migrationNames()).toEqual(['0001_add_talk_abstract'])
  })

  it('names a migration after every change it makes, cut to whole steps when long', async () => {
    writeManifest(POSTS)
    await create()
    writeManifest(`${POSTS}      sku: { type: string }\n  tags: {}\n`)
    expect((await create()).stdout).toBe(
      'Created migrations/0002_add_posts_sku_add_tags/ (review it, then commit it):\n  posts: add sku\n  create table tags\n',
    )
    const fields = Array.from({ length: 12 }, (_, index) => `      field_${index}: { type: string }\n`).join('')
    writeManifest(`${POSTS}      sku: { type: string }\n${fields}  tags: {}\n`)
    await create()
    expect(migrationNames().at(-1)).toBe('0003_add_posts_field_0_add_posts_field_1_and_10_more')
  })

  it('says nothing of indexes when only their order changed or a renamed column carries its index', async () => {
    const indexed = (order: string, title = 'title') =>
      `  posts:\n    fields:\n      ${title}: { type: string${title === 'title' ? '' : ', renamed_from: title'} }\n      views: { type: integer }\n    sort: ${order}\n`
    writeManifest(indexed('[title, views]'))
    await create()
    writeManifest(indexed('[views, title]'))
    expect((await create()).stdout).toBe('migrations/ is up to date with resources.yaml: nothing to migrate.\n')
    writeManifest(indexed('[views, heading]', 'heading'))
    expect((await create()).stdout).toBe(
      'Created migrations/0002_rename_posts_title_to_heading/ (review it, then commit it):\n  posts: rename title to heading\n',
    )
  })

  it('reports what a migration needs at the manifest, and writes nothing', async () => {
    writeManifest(`${POSTS}      legacy: { type: string }\n`)
    await create()
    writeManifest(`${POSTS}      summary: { type: string, required: true }\n`)
    const run = await create()
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toBe(
      'resources.yaml:8:7: error MIGRATION_DATA_LOSS: column legacy is no longer in resource "posts": the migration drops it from table posts with all its values; if it was renamed, declare it: did you mean renamed_from: legacy on field "summary" of resource "posts"? Otherwise pass --allow-data-loss to accept the loss\n' +
        '        summary: { type: string, required: true }\n' +
        '        ^^^^^^^\n' +
        'resources.yaml:8:7: error MIGRATION_VALUE_NEEDED: field "summary" of resource "posts" is added as NOT NULL (required, without a default), so the rows already in table posts need a value for it: give it a default in the manifest, or pass --backfill posts.summary=<value>; or, if it is an old column renamed, did you mean renamed_from: legacy on field "summary" of resource "posts"?\n' +
        '        summary: { type: string, required: true }\n' +
        '        ^^^^^^^\n' +
        'resources.yaml: 2 errors; nothing was written.\n',
    )
    expect(migrationNames()).toEqual(['0001_init'])

    const fixed = await create('--backfill', 'posts.summary=none', '--allow-data-loss')
    expect(fixed.exitCode).toBe(0)
    expect(fixed.stdout).toContain('data loss: column posts.legacy (all its values)')
  })

  it('refuses backfills for unknown columns, values of the wrong type, and unused ones', async () => {
    writeManifest(`${POSTS}      views: { type: integer }\n`)
    await create()
    writeManifest(`${POSTS}      views: { type: integer, required: true }\n`)
    const run = await create(
      '--backfill',
      'post.views=1',
      '--backfill',
      'posts.veiws=1',
      '--backfill',
      'posts.views=many',
      '--backfill',
      'views',
    )
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toBe(
      'restmint: --backfill post.views=1: "post" is not a resource of the manifest; did you mean "posts"?\n' +
        '--backfill posts.veiws=1: resource "posts" has no field "veiws"; did you mean "views"?\n' +
        '--backfill posts.views=many: the value of posts.views (integer) must be an integer\n' +
        '--backfill views: write it as resource.field=value, e.g. --backfill posts.summary=none\n' +
        'Nothing was written.\n',
    )
    const unused = await create('--backfill', 'posts.views=3', '--backfill', 'posts.title=x')
    expect(unused.exitCode).toBe(1)
    expect(unused.stderr).toContain(
      'error MIGRATION_BACKFILL_UNUSED: --backfill posts.title=x is not needed: column title of table posts is neither added to existing rows nor made NOT NULL by this migration; remove the option',
    )
    expect(migrationNames()).toEqual(['0001_init'])
  })

  it('stops while another migrate create holds the directory, and takes over a killed one', async () => {
    writeManifest(POSTS)
    mkdirSync(join(project, 'migrations'))
    // This test's own process is alive: as if another migrate create were running.
    writeFileSync(join(project, 'migrations', '.restmint-lock'), `${process.pid}\n`)
    const { runCliProcess } = await import('../support/spawn-cli.js')
    const blocked = await runCliProcess(project, ['migrate', 'create'])
    expect(blocked.exitCode).toBe(1)
    expect(blocked.stderr).toContain(
      `restmint: another restmint migrate create (process ${process.pid}) is writing to migrations (it holds `,
    )
    expect(migrationNames()).toEqual(['.restmint-lock'])

    // A process id that cannot exist (above pid_max) stands for a killed run.
    writeFileSync(join(project, 'migrations', '.restmint-lock'), '4194305\n')
    mkdirSync(join(project, 'migrations', '.restmint-new-4194305'))
    writeFileSync(join(project, 'migrations', '.restmint-new-4194305', 'sqlite.sql'), '-- half')
    expect(listMigrations(join(project, 'migrations'))).toEqual([])
    expect((await create()).exitCode).toBe(0)
    expect(migrationNames()).toEqual(['0001_init'])
  })
})

describe('restmint check with migrations', () => {
  it('fails on a manifest change without its migration, and passes with it', async () => {
    writeManifest(POSTS)
    expect((await runCli(project, 'generate')).exitCode).toBe(0)
    const unmigrated = await runCli(project, 'check')
    expect(unmigrated.exitCode, 'no migrations directory: not checked').toBe(0)
    expect(unmigrated.stdout).not.toContain('migrations')

    await create()
    expect((await runCli(project, 'check')).stdout).toContain(
      'migrations/0001_init/snapshot.json matches the storage model of resources.yaml.\n',
    )

    writeManifest(
      `${POSTS}      summary: { type: string, renamed_from: title }\n  reviews: {}\n`.replace(
        '      title: { type: string, required: true }\n',
        '',
      ),
    )
    expect((await runCli(project, 'generate')).exitCode).toBe(0)
    const stale = await runCli(project, 'check')
    expect(stale.exitCode).toBe(1)
    expect(stale.stdout).toContain(
      "the manifest's storage model differs from migrations/0001_init/snapshot.json: posts: rename title to summary, alter summary; create table reviews; " +
        'run `restmint migrate create --manifest resources.yaml --migrations migrations`, review the migration, ' +
        'then apply it (`restmint migrate apply`, or `restmint serve --migrate`)\n',
    )

    expect((await create('--backfill', 'posts.summary=x')).stderr).toContain('MIGRATION_BACKFILL_UNUSED')
    expect((await create()).exitCode).toBe(0)
    const fixed = await runCli(project, 'check')
    expect(fixed.exitCode, fixed.stdout).toBe(0)
  })
})
