import { readFileSync } from 'node:fs'
import { compileErrors, validate } from '@readme/openapi-parser'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/tags-api/generated/server.js'
import {
  allTables,
  authorsTable,
  commentsTable,
  postsTable,
  postTagsTable,
  tagsTable,
} from '../fixtures/tags-api/generated/schema.js'
import type { Row, TableDefinition } from '../../runtime/contract/table-definition.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { loadManifestApi } from '../migrate/load-manifest-api.js'

/**
 * Issue 17: many-to-many through a join resource (list, link, unlink,
 * include), composite unique constraints (409 naming both fields) and
 * filters across relations (EXISTS: a post with two matching tags comes
 * once), with statement counts, on the tags API (test/fixtures/tags-api).
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: many-to-many`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let ada: number
    let grace: number
    /** rust, go, sql, zig (no post) */
    const tag: Record<string, number> = {}
    /** first: rust, go, sql; second: rust; third: none */
    const post: Record<string, number> = {}

    const insert = async (table: TableDefinition, values: Row) =>
      (await storage.storage.insert(table, values)).id as number
    const send = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url, ...(payload ? { payload } : {}) })
    const list = async (url: string) => {
      const response = await send('GET', url)
      expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200)
      return response.json<{ data: Record<string, any>[]; meta: Record<string, any> }>()
    }
    const statementsOf = async (work: () => Promise<unknown>) => {
      const before = storage.statements()
      await work()
      return storage.statements() - before
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildServer({ storage: storage.storage, docs: false })
      ada = await insert(authorsTable, { name: 'Ada' })
      grace = await insert(authorsTable, { name: 'Grace' })
      for (const name of ['rust', 'go', 'sql', 'zig']) tag[name] = await insert(tagsTable, { name })
      post.first = await insert(postsTable, { title: 'First', slug: 'first', author_id: ada })
      post.second = await insert(postsTable, { title: 'Second', slug: 'second', author_id: grace })
      post.third = await insert(postsTable, { title: 'Third', slug: 'third', author_id: ada })
      for (const [name, position] of [
        ['rust', 1],
        ['go', 2],
        ['sql', 3],
      ] as const) {
        await insert(postTagsTable, { post_id: post.first!, tag_id: tag[name]!, position })
      }
      await insert(postTagsTable, { post_id: post.second!, tag_id: tag.rust!, position: 1 })
      await insert(commentsTable, { post_id: post.second!, body: 'nice' })
      await insert(commentsTable, { post_id: post.second!, body: 'nice' })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    it('lists the tags of one post, paginated, filterable and sortable like any list', async () => {
      const all = await list(`/v1/posts/${post.first}/tags?sort=-name`)
      expect(all.data.map((row) => row.name)).toEqual(['sql', 'rust', 'go'])
      expect(all.meta).toMatchObject({ total: 3, page: 1 })
      const page = await list(`/v1/posts/${post.first}/tags?per_page=2&sort=name&page=2`)
      expect(page.data.map((row) => row.name)).toEqual(['sql'])
      const filtered = await list(`/v1/posts/${post.first}/tags?filter[name][starts_with]=r`)
      expect(filtered.data.map((row) => row.name)).toEqual(['rust'])
      expect((await list(`/v1/posts/${post.third}/tags`)).data).toEqual([])
      expect((await send('GET', '/v1/posts/9999/tags')).statusCode).toBe(404)
    })

    it('links an existing tag (201, the join record), refuses a duplicate link (409 naming both keys) and an unknown tag (400 naming tag_id)', async () => {
      const created = await send('POST', `/v1/posts/${post.third}/tags`, { tag_id: tag.zig, position: 4 })
      expect(created.statusCode, created.body).toBe(201)
      const link = created.json<{ data: Row }>().data
      expect(link).toMatchObject({ post_id: post.third, tag_id: tag.zig, position: 4 })
      expect(created.headers.location).toBe(`/v1/post-tags/${link.id}`)
      expect((await list(`/v1/posts/${post.third}/tags`)).data.map((row) => row.name)).toEqual(['zig'])

      const duplicate = await send('POST', `/v1/posts/${post.third}/tags`, { tag_id: tag.zig })
      expect(duplicate.statusCode).toBe(409)
      expect(duplicate.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(duplicate.json()).toMatchObject({
        code: 'unique_violation',
        errors: [
          { in: 'body', pointer: '/post_id', detail: 'must be unique together with tag_id' },
          { in: 'body', pointer: '/tag_id', detail: 'must be unique together with post_id' },
        ],
      })

      const unknown = await send('POST', `/v1/posts/${post.third}/tags`, { tag_id: 9999 })
      expect(unknown.statusCode).toBe(400)
      expect(unknown.json()).toMatchObject({ errors: [{ pointer: '/tag_id' }] })
      const pathKey = await send('POST', `/v1/posts/${post.third}/tags`, { tag_id: tag.go, post_id: post.first })
      expect(pathKey.statusCode).toBe(400)
      expect((await send('POST', `/v1/posts/9999/tags`, { tag_id: tag.go })).statusCode).toBe(404)
    })

    it('unlinks (204, the tag stays), and answers 404 when the two are not linked', async () => {
      const created = await send('POST', `/v1/posts/${post.third}/tags`, { tag_id: tag.go })
      expect(created.statusCode, created.body).toBe(201)
      const removed = await send('DELETE', `/v1/posts/${post.third}/tags/${tag.go}`)
      expect(removed.statusCode).toBe(204)
      expect((await send('GET', `/v1/tags/${tag.go}`)).statusCode).toBe(200)
      const again = await send('DELETE', `/v1/posts/${post.third}/tags/${tag.go}`)
      expect(again.statusCode).toBe(404)
      expect(again.json<{ detail: string }>().detail).toBe(`post ${post.third} is not linked to tag ${tag.go}.`)
    })

    it('serves the join resource at its own top-level path', async () => {
      const links = await list(`/v1/post-tags?post_id=${post.first}&sort=position`)
      expect(links.data.map((row) => row.tag_id)).toEqual([tag.rust, tag.go, tag.sql])
    })

    it('two concurrent links of the same tag: exactly one 201 and one 409', async () => {
      const fresh = await insert(postsTable, { title: 'Race', slug: 'race', author_id: grace })
      const answers = await Promise.all([
        send('POST', `/v1/posts/${fresh}/tags`, { tag_id: tag.sql }),
        send('POST', `/v1/posts/${fresh}/tags`, { tag_id: tag.sql }),
      ])
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409])
    })

    it('embeds tags with include=tags in one statement for the whole page, capped and reported as truncated', async () => {
      const count = await statementsOf(async () => {
        const page = await list('/v1/posts?include=tags&sort=title&count=none')
        const first = page.data.find((row) => row.id === post.first)!
        expect(first.tags.map((row: Row) => row.name)).toEqual(['rust', 'go', 'sql'])
        expect(first.tags[0]).not.toHaveProperty('_restmint_owner')
        expect(page.data.find((row) => row.id === post.second)!.tags.map((row: Row) => row.name)).toEqual(['rust'])
      })
      // The page, then one statement for tags.
      expect(count).toBe(2)
    })

    it("caps each owner's linked rows in one statement: the first by id of those the row filter keeps", async () => {
      const link = { table: postTagsTable.name, column: 'post_id', targetColumn: 'tag_id' }
      const owned = (rows: { owner: number; row: Row }[]) => rows.map(({ owner, row }) => [owner, row.name])
      const count = await statementsOf(async () => {
        // Tags were inserted rust, go, sql: their ids run in that order. A value listed twice counts once.
        const values = [post.second!, post.first!, post.first!]
        expect(owned(await storage.storage.findLinked(tagsTable, link, values, 2))).toEqual([
          [post.first, 'rust'],
          [post.first, 'go'],
          [post.second, 'rust'],
        ])
        expect(owned(await storage.storage.findLinked(tagsTable, link, [post.first!], 1, { name: 'sql' }))).toEqual([
          [post.first, 'sql'],
        ])
      })
      expect(count).toBe(2)
    })

    it('filters across a many-to-many with EXISTS: each post once, one page statement and one count', async () => {
      let page: Awaited<ReturnType<typeof list>> | undefined
      const count = await statementsOf(async () => {
        page = await list('/v1/posts?filter[tags.name][in]=rust,go&sort=title')
      })
      expect(page!.data.map((row) => row.title)).toEqual(['First', 'Second'])
      expect(page!.meta.total).toBe(2)
      // As many statements as the same list without the filter: the page and its count.
      expect(count).toBe(await statementsOf(() => list('/v1/posts?sort=title')))
      expect((await list('/v1/posts?filter[tags.name][eq]=zig')).data.map((row) => row.title)).toEqual(['Third'])
    })

    it('filters across a has-many and a belongs-to', async () => {
      expect((await list('/v1/posts?filter[comments.body][eq]=nice')).data.map((row) => row.title)).toEqual(['Second'])
      expect((await list('/v1/posts?filter[author.name][eq]=Ada&sort=title')).data.map((row) => row.title)).toEqual([
        'First',
        'Third',
      ])
      const refused = await send('GET', '/v1/posts?filter[tags.id][eq]=1')
      expect(refused.statusCode).toBe(400)
    })

    it('a composite unique answers 409 naming both fields', async () => {
      const created = await send('POST', '/v1/posts', { title: 'Again', slug: 'first', author_id: ada })
      expect(created.statusCode).toBe(409)
      expect(created.json()).toMatchObject({
        code: 'unique_violation',
        detail: 'Another post already has this combination of author_id and slug.',
      })
      const elsewhere = await send('POST', '/v1/posts', { title: 'Again', slug: 'first', author_id: grace })
      expect(elsewhere.statusCode).toBe(201)
    })
  })
}

// A join resource without a unique pair: a tag may be linked to a post twice; its tag is optional, so a
// join row may link to no tag at all.
const TWICE_MANIFEST = `restmint: 1
service: { title: Linked twice }
versions:
  v1: {}
limits: { include_items_max: 2 }
resources:
  tags:
    fields:
      name: { type: string, required: true }
  posts:
    fields:
      title: { type: string, required: true }
    relations:
      tags: { resource: tags, many: true, through: post-tags }
    include: [tags]
  post-tags:
    relations:
      post: { resource: posts, required: true, on_delete: cascade }
      tag: { resource: tags, on_delete: cascade }
`

for (const dialect of DIALECTS) {
  describe(`${dialect}: a tag linked to a post twice`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    beforeAll(async () => {
      const api = await loadManifestApi(TWICE_MANIFEST)
      const table = (name: string) => api.tables.find((each) => each.resource === name)!
      storage = await openTestStorage(dialect, api.tables as TableDefinition[])
      app = await api.buildServer({ storage: storage.storage, docs: false })
      const insert = async (name: string, values: Row) => (await storage.storage.insert(table(name), values)).id!
      const post = await insert('posts', { title: 'one' })
      const [rust, go, sql] = [
        await insert('tags', { name: 'rust' }),
        await insert('tags', { name: 'go' }),
        await insert('tags', { name: 'sql' }),
      ]
      for (const tag of [null, rust, rust, null, go, sql]) await insert('post-tags', { post_id: post, tag_id: tag })
    }, 30_000)
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    it('is embedded once, taking one place under include_items_max (a join row naming no tag takes none), and the cut is reported', async () => {
      const response = await app.inject({ url: '/v1/posts?include=tags' })
      expect(response.statusCode, response.body).toBe(200)
      const body = response.json<{ data: { tags: { name: string }[] }[]; meta: { truncated?: unknown[] } }>()
      expect(body.data[0]!.tags.map((tag) => tag.name)).toEqual(['rust', 'go'])
      expect(body.meta.truncated).toHaveLength(1)
    })
  })
}

describe('many-to-many in the OpenAPI document', () => {
  const document = JSON.parse(
    readFileSync(new URL('../fixtures/tags-api/generated/v1/openapi.json', import.meta.url), 'utf8'),
  )

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(JSON.parse(JSON.stringify(document)))
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
  })

  it('documents the link routes, the link body and the filters across relations', () => {
    const links = document.paths['/v1/posts/{post_id}/tags']
    expect(Object.keys(links)).toEqual(['parameters', 'get', 'post'])
    expect(links.post.requestBody.content['application/json'].schema).toMatchObject({
      properties: { tag_id: { type: 'integer' }, position: { type: 'integer' } },
      required: ['tag_id'],
      additionalProperties: false,
    })
    expect(Object.keys(links.post.responses)).toEqual(['201', '400', '404', '409'])
    expect(Object.keys(document.paths['/v1/posts/{post_id}/tags/{tag_id}'])).toEqual(['parameters', 'delete'])
    const parameters = document.components.parameters
    expect(parameters['filter.tags.name.in']).toMatchObject({
      name: 'filter[tags.name][in]',
      schema: { type: 'array', items: { type: 'string' } },
    })
  })
})
