/**
 * The example project's migration workflow (issue 8, "Done when" 2), in a
 * copy of this checkout: `npm start`'s serve creates and seeds
 * data/restmint.db; the manifest gains a field and a resource; `restmint
 * generate` and `restmint migrate create`; `npm start`'s serve again migrates
 * that same file and serves the old rows and the new resource. And a
 * data/restmint.db that serve created before the project had migrations is
 * adopted.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyCheckout } from '../support/copy-checkout.js'
import { runCli } from '../support/run-cli.js'
import { spawnCli } from '../support/spawn-cli.js'

type Row = Record<string, unknown> & { readonly id: number }

let checkout = ''
afterEach(async () => {
  if (checkout !== '') await rm(dirname(checkout), { recursive: true, force: true })
  checkout = ''
})

/** The arguments `npm start` gives restmint, on a free port. */
function startArgs(): string[] {
  const start = (JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start
  const [node, bin, ...args] = start.split(' ')
  expect([node, bin]).toEqual(['node', 'bin/restmint.js'])
  expect(args).toEqual(['serve', '--db', 'sqlite:./data/restmint.db', '--seed', '--migrate'])
  return [...args, '--port', '0']
}

/** Runs `npm start`'s serve in the checkout, hands `use` its address, and stops it. Returns what it printed. */
async function whileServing(use: (base: string) => Promise<void>): Promise<string> {
  const server = spawnCli(checkout, startArgs())
  try {
    const stdout = await server.waitForStdout(/serving .*\n/)
    await use(/at (http:\/\/\S+) /.exec(stdout)![1]!)
    return stdout
  } finally {
    const ended = await server.stop()
    expect(ended, server.output().stderr).toEqual({ code: 0, signal: null })
  }
}

/** Adds an author no seed would write, so rows read later are known to be this database's. */
async function addAuthor(base: string): Promise<void> {
  const response = await fetch(`${base}/v1/authors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Written before the migration' }),
  })
  expect(response.status).toBe(201)
}

async function getRows(base: string, path: string): Promise<Row[]> {
  const response = await fetch(`${base}${path}?per_page=100`)
  expect(response.status, path).toBe(200)
  return ((await response.json()) as { data: Row[] }).data
}

describe('the example project', () => {
  it('migrates the database npm start created after the manifest gains a field and a resource', async () => {
    checkout = await copyCheckout()
    let postsBefore: Row[] = []
    let authorsBefore: Row[] = []
    await whileServing(async (base) => {
      await addAuthor(base)
      postsBefore = await getRows(base, '/v1/posts')
      authorsBefore = await getRows(base, '/v1/authors')
    })
    expect(existsSync(join(checkout, 'data', 'restmint.db'))).toBe(true)
    expect(postsBefore.length).toBeGreaterThan(0)
    expect(authorsBefore.map((author) => author.name)).toContain('Written before the migration')

    const manifest = join(checkout, 'resources.yaml')
    const edited = readFileSync(manifest, 'utf8')
      .replace(
        '      published_at: { type: datetime, nullable: true }\n',
        '      published_at: { type: datetime, nullable: true }\n      summary: { type: string, max_length: 500 }\n',
      )
      .concat('  labels:\n    fields:\n      text: { type: string, required: true, unique: true }\n')
    writeFileSync(manifest, edited)
    expect((await runCli(checkout, 'generate')).exitCode).toBe(0)
    const created = await runCli(checkout, 'migrate', 'create')
    expect(created.stderr).toBe('')
    expect(created.stdout).toMatch(/^Created migrations\/0007_\w+\/ /)
    expect(created.stdout).toContain('  create table labels\n')
    expect(created.stdout).toContain('  posts: add summary\n')

    const stdout = await whileServing(async (base) => {
      const posts = await getRows(base, '/v1/posts')
      expect(posts).toEqual(postsBefore.map((post) => ({ ...post, summary: null })))
      expect(await getRows(base, '/v1/authors')).toEqual(authorsBefore)

      const post = await fetch(`${base}/v1/labels`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'news' }),
      })
      expect(post.status).toBe(201)
      const { data: label } = (await post.json()) as { data: Row }
      const read = await fetch(`${base}/v1/labels/${label.id}`)
      expect(read.status).toBe(200)
      expect(((await read.json()) as { data: Row }).data).toMatchObject({ id: label.id, text: 'news' })
    })
    expect(stdout).toMatch(/^restmint: applying 0007_\w+ .*\nrestmint: applied 0007_\w+\nrestmint: serving /)
  }, 120_000)

  it('adopts a database serve created before the project had migrations', async () => {
    checkout = await copyCheckout()
    const migrations = join(checkout, 'migrations')
    const saved = join(await mkdtemp(join(tmpdir(), 'restmint-saved-migrations-')), 'migrations')
    cpSync(migrations, saved, { recursive: true })
    rmSync(migrations, { recursive: true })
    // The project before migrations: one version, posts' text still `body`, no owner, no app module and what
    // 0004 added for it, no custom operations and what 0005 added for them, no tags, list_price, soft-deleted
    // comments or aggregate (0006) (what 0001_init's snapshot holds).
    const manifest = join(checkout, 'resources.yaml')
    const current = readFileSync(manifest, 'utf8')
    const before = current
      .replace(/^versions:\n(?: .*\n)+/m, 'versions:\n  v1: {}\n')
      .replace('      content: { type: string }\n', '      body: { type: string }\n')
      .replace(/^    owner: .*\n    access:\n(?:      .*\n)+/m, '')
      .replace(/^app: .*\n/m, '')
      .replace(/^      (total|line_total): .*\n/gm, '')
      .replace(/^    (hooks: .*|computed:\n      word_count: .*)\n/gm, '')
      .replace(/^  audits:.*\n(?:    .*\n)+/m, '')
      .replace(/^  reports:.*\n(?:    .*\n)+/m, '')
      .replace(/^    operations:.*\n(?:      .*\n)+/m, '')
      .replace(/^    owner: .*\n/m, '')
      .replace(/^      cancelled_at: .*\n/m, '')
      .replace(/^      (list_price|tags|tags\.name): .*\n/gm, '')
      .replace('include: [author, category, comments, tags]', 'include: [author, category, comments]')
      .replace(/^    aggregate:.*\n(?:      .*\n)+/m, '')
      .replace(/^    soft_delete: .*\n/m, '')
      .replace(/^    access:\n      deleted: .*\n/m, '')
      .replace(/^  (tags|post-tags):.*\n(?:    .*\n)+/gm, '')
    expect(before).not.toBe(current)
    writeFileSync(manifest, before)
    expect((await runCli(checkout, 'generate')).exitCode).toBe(0)
    try {
      let authorsBefore: Row[] = []
      const first = await whileServing(async (base) => {
        await addAuthor(base)
        authorsBefore = await getRows(base, '/v1/authors')
      })
      expect(first).not.toContain('0001_init')
      expect(authorsBefore.map((author) => author.name)).toContain('Written before the migration')

      cpSync(saved, migrations, { recursive: true })
      writeFileSync(manifest, current)
      expect((await runCli(checkout, 'generate')).exitCode).toBe(0)
      const stdout = await whileServing(async (base) => {
        expect(await getRows(base, '/v1/authors')).toEqual(authorsBefore)
      })
      expect(stdout).toMatch(
        /^restmint: adopted 0001_init: the database's tables match its snapshot; .*\nrestmint: applying 0002_\w+ .*\nrestmint: applied 0002_\w+\nrestmint: applying 0003_\w+ .*\nrestmint: applied 0003_\w+\nrestmint: applying 0004_\w+ .*\nrestmint: applied 0004_\w+\nrestmint: applying 0005_\w+ .*\nrestmint: applied 0005_\w+\nrestmint: applying 0006_\w+ .*\nrestmint: applied 0006_\w+\nrestmint: serving /,
      )
      const status = await runCli(
        checkout,
        'migrate',
        'status',
        '--db',
        `sqlite:${join(checkout, 'data', 'restmint.db')}`,
      )
      expect(status.stdout).toMatch(
        / 0001_init +applied .*\n.* 0002_\w+ +applied .*\n.* 0003_\w+ +applied .*\n.* 0004_\w+ +applied .*\n.* 0005_\w+ +applied .*\n.* 0006_\w+ +applied .*\nrestmint: up to date\n$/,
      )
    } finally {
      rmSync(dirname(saved), { recursive: true, force: true })
    }
  }, 120_000)
})
