import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { planMigration } from '../../generator/migrate/plan-migration.js'
import { applyMigrations } from '../../runtime/migrations/apply-migrations.js'
import { injectJson } from '../support/inject-json.js'
import { runCli } from '../support/run-cli.js'
import { DIALECTS } from '../support/test-postgres.js'
import { loadManifestApi } from './load-manifest-api.js'
import { createMigrationDatabase } from './migration-database.js'
import { storageOfManifest } from './storage-of.js'

/**
 * Issue 9's storage for versions: the newest version's renames are storage
 * renames for `migrate create`, and what only an older live version uses (a
 * removed field, a removed resource) stays until that version leaves
 * `versions:`, then goes only with --allow-data-loss. test/fixtures/evolving-api
 * is the two-version manifest; V1_ONLY is the same API before v2 existed.
 */
const EVOLVING = readFileSync(join(import.meta.dirname, '../fixtures/evolving-api/resources.yaml'), 'utf8')
const V1_ONLY = `restmint: 1
service: { title: Evolving API }
versions: { v1: {} }
resources:
  authors:
    fields:
      name: { type: string, required: true, max_length: 100 }
    relations:
      books: { resource: books, many: true, via: author, max_items: 2 }
    include: [books]
    sort: [name]
    filter: { name: [eq, contains] }
  books:
    fields:
      heading: { type: string, required: true, unique: true, max_length: 200 }
      pages: { type: integer, minimum: 1 }
      price: { type: number, minimum: 0, nullable: true }
    relations:
      author: { resource: authors, required: true }
      comments: { resource: comments, many: true }
    include: [author, comments]
    sort: [heading, pages]
    filter: { author_id: [eq, in], heading: [eq, contains], pages: [gte, lte] }
  comments:
    parent: books
    on_delete: cascade
    fields:
      text: { type: string, required: true, max_length: 2000 }
  coupons:
    parent: authors
    on_delete: cascade
    fields:
      code: { type: string, required: true, unique: true, max_length: 20 }
      percent: { type: integer, minimum: 1, maximum: 100, default: 10 }
    sort: [code]
`
/** The evolving API once v1 has left `versions:`: v2 alone, its changes kept as history. */
const V2_ONLY = `${EVOLVING.slice(0, EVOLVING.indexOf('versions:'))}versions: { v2: {} }\n${EVOLVING.slice(EVOLVING.indexOf('resources:'))}`

function plan(before: string, after: string, allowDataLoss = false) {
  const next = storageOfManifest(after)
  return planMigration({
    before: storageOfManifest(before).snapshot,
    after: next.snapshot,
    origins: next.origins,
    backfills: [],
    allowDataLoss,
  })
}

describe('migrate create over version changes', () => {
  it('renames what v2 renamed and keeps what v1 still serves', () => {
    const { plan: planned, problems } = plan(V1_ONLY, EVOLVING)
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([])
    const changes = planned!.changes.map((change) => `${change.before?.name ?? '+'}>${change.after?.name ?? '-'}`)
    expect(changes).toEqual(expect.arrayContaining(['authors>writers', 'books>books']))
    expect(changes).not.toContain('coupons>-')
    const books = planned!.changes.find((change) => change.after?.name === 'books')!
    expect(books.sources).toMatchObject({
      title: { kind: 'column', column: 'heading' },
      writer_id: { kind: 'column', column: 'author_id' },
      price: { kind: 'column', column: 'price' },
      language: { kind: 'new', backfill: 'en' },
    })
    expect(planned!.dataLoss).toEqual([])
  })

  it('drops the retired column and table once v1 is gone, only with --allow-data-loss', () => {
    const refused = plan(EVOLVING, V2_ONLY)
    expect(refused.plan).toBeNull()
    const paths = refused.problems.map((problem) => `${problem.code} ${problem.message}`)
    expect(paths.join('\n')).toMatch(/price/)
    expect(paths.join('\n')).toMatch(/coupons/)
    const allowed = plan(EVOLVING, V2_ONLY, true)
    expect([...allowed.plan!.dataLoss].sort()).toEqual(
      [expect.stringMatching(/price/), expect.stringMatching(/coupons/)].sort(),
    )
  })
})

describe.each(DIALECTS)('%s: a v1 database migrated to v1 and v2', (dialect) => {
  it('keeps every row: v1 reads what it wrote as before, v2 reads it in its names', async () => {
    const database = createMigrationDatabase(dialect)
    const servers: FastifyInstance[] = []
    /** Writes `manifest`, creates its migration, applies it and serves it. */
    const migrateTo = async (manifest: string) => {
      writeFileSync(join(database.directory, 'resources.yaml'), manifest)
      const created = await runCli(database.directory, 'migrate', 'create')
      expect(created.exitCode, created.stderr).toBe(0)
      const directory = join(database.directory, 'migrations')
      await applyMigrations({ url: database.url, schema: database.schema, directory, log: () => {} })
      const api = await loadManifestApi(manifest)
      const app = await api.buildServer({ db: database.url, schema: database.schema, docs: false })
      servers.push(app)
      return { created, send: (options: Parameters<typeof injectJson>[1]) => injectJson(app, options) }
    }
    try {
      const before = await migrateTo(V1_ONLY)
      const post = (url: string, payload: object) => before.send({ method: 'POST', url, payload })
      const author = (await post('/v1/authors', { name: 'Ann' })).body.data
      const book = (await post('/v1/books', { heading: 'Dune', price: 9.5, author_id: author.id })).body.data
      const comment = (await post(`/v1/books/${book.id}/comments`, { text: 'Great' })).body.data
      const coupon = (await post(`/v1/authors/${author.id}/coupons`, { code: 'SAVE' })).body.data
      await servers.pop()!.close()

      const after = await migrateTo(EVOLVING)
      expect(after.created.stdout).toMatch(/rename/)
      const get = async (url: string) => (await after.send({ method: 'GET', url })).body.data
      expect(await get(`/v1/books/${book.id}`)).toEqual(book)
      expect(await get(`/v1/authors/${author.id}`)).toEqual(author)
      expect(await get(`/v1/books/${book.id}/comments/${comment.id}`)).toEqual(comment)
      expect(await get(`/v1/authors/${author.id}/coupons/${coupon.id}`)).toEqual(coupon)
      expect(await get(`/v2/books/${book.id}`)).toMatchObject({ title: 'Dune', writer_id: author.id, language: 'en' })
      expect(await get(`/v2/writers/${author.id}`)).toMatchObject({ name: 'Ann' })
      expect(await get(`/v2/comments/${comment.id}`)).toMatchObject({ text: 'Great', book_id: book.id })
    } finally {
      for (const app of servers) await app.close()
      await database.dispose()
    }
  })
})
