import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import type { Row, TableDefinition } from '../../runtime/contract/table-definition.js'
import { loadManifestApi } from '../migrate/load-manifest-api.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Filters across relations apply the read rule of every table they pass
 * (issue 17's gap): a caller filtering public posts on `author.name`,
 * `tags.name` or `secret.code` learns nothing about authors, tags, links
 * or secrets it may not read; what it may read filters as before, with the
 * same statements (the page and its count). Aggregates filter alike, and the
 * linked tags of a post are those linked by links the caller may list.
 */
const MANIFEST = `restmint: 1
service: { title: Filter access }
versions:
  v1: {}
auth:
  schemes:
    user:
      type: jwt
      secret_env: FILTER_ACCESS_TEST_JWT_SECRET
      issuer: https://auth.example.test/
      audience: filter-access
      algorithms: [HS256]
  default: public
resources:
  authors:
    fields:
      name: { type: string, required: true }
    owner: { field: owner_sub, claim: sub, scheme: user }
    access: { all: owner }
  tags:
    fields:
      name: { type: string, required: true }
    owner: { field: owner_sub, claim: sub, scheme: user }
    access: { all: owner }
  secrets:
    fields:
      code: { type: string, required: true }
    access: { all: { scopes: [secrets:read] } }
  posts:
    fields:
      title: { type: string, required: true }
    relations:
      author: { resource: authors }
      secret: { resource: secrets }
      tags: { resource: tags, many: true, through: post-tags }
    include: [author, secret, tags]
    filter:
      author.name: [eq]
      tags.name: [eq, in]
      secret.code: [eq]
    aggregate:
      group_by: [author_id]
  post-tags:
    owner: { field: owner_sub, claim: sub, scheme: user }
    access: { all: owner }
    relations:
      post: { resource: posts, required: true, on_delete: cascade }
      tag: { resource: tags, required: true, on_delete: cascade }
    unique: [[post_id, tag_id]]
`

const SECRET = randomBytes(32).toString('hex')
const now = () => Math.floor(Date.now() / 1000)
const as = (sub: string, scope = '') => ({
  authorization: `Bearer ${signJwt(
    { iss: 'https://auth.example.test/', aud: 'filter-access', sub, scope, iat: now(), exp: now() + 300 },
    { alg: 'HS256', secret: SECRET },
  )}`,
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: filters across relations apply the related resources' read rules`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    const post: Record<string, number> = {}

    const titles = async (url: string, headers = {}) => {
      const response = await app.inject({ url, headers })
      expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200)
      const body = response.json<{ data: { title?: string; name?: string }[]; meta: { total?: number } }>()
      return { names: body.data.map((row) => row.title ?? row.name), total: body.meta.total }
    }
    const statementsOf = async (work: () => Promise<unknown>) => {
      const before = storage.statements()
      await work()
      return storage.statements() - before
    }

    beforeAll(async () => {
      const api = await loadManifestApi(MANIFEST)
      const table = (name: string) => api.tables.find((each) => each.resource === name)!
      const insert = async (name: string, values: Row) => (await storage.storage.insert(table(name), values)).id!
      storage = await openTestStorage(dialect, api.tables as TableDefinition[])
      app = await api.buildServer({
        storage: storage.storage,
        docs: false,
        env: { FILTER_ACCESS_TEST_JWT_SECRET: SECRET },
      })
      const ada = await insert('authors', { name: 'Ada', owner_sub: 'alice' })
      const bea = await insert('authors', { name: 'Bea', owner_sub: 'bob' })
      const code = await insert('secrets', { code: 'x1' })
      const go = await insert('tags', { name: 'go', owner_sub: 'alice' })
      const rust = await insert('tags', { name: 'rust', owner_sub: 'bob' })
      post.one = (await insert('posts', { title: 'one', author_id: ada, secret_id: code })) as number
      post.two = (await insert('posts', { title: 'two', author_id: bea })) as number
      post.three = (await insert('posts', { title: 'three', author_id: ada })) as number
      // alice links her tag to one and three; bob links his tag, and alice's, to two.
      for (const [postId, tagId, owner] of [
        [post.one, go, 'alice'],
        [post.three, go, 'alice'],
        [post.two, rust, 'bob'],
        [post.two, go, 'bob'],
      ] as const) {
        await insert('post-tags', { post_id: postId, tag_id: tagId, owner_sub: owner })
      }
    }, 30_000)
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    it('a belongs-to: another owner’s author matches nothing, the caller’s own matches', async () => {
      expect((await titles('/v1/posts?filter[author.name][eq]=Bea', as('alice'))).names).toEqual([])
      expect((await titles('/v1/posts?filter[author.name][eq]=Ada', as('alice'))).names).toEqual(['one', 'three'])
      expect((await titles('/v1/posts?filter[author.name][eq]=Bea', as('bob'))).names).toEqual(['two'])
      // Without credentials no author is readable: the filter matches nothing.
      expect((await titles('/v1/posts?filter[author.name][eq]=Ada')).names).toEqual([])
    })

    it('a many-to-many: neither another owner’s tag nor another owner’s link to the caller’s tag matches', async () => {
      expect((await titles('/v1/posts?filter[tags.name][eq]=rust', as('alice'))).names).toEqual([])
      // two is linked to go too, by bob's link, which alice may not read.
      expect((await titles('/v1/posts?filter[tags.name][eq]=go', as('alice'))).names).toEqual(['one', 'three'])
      expect((await titles('/v1/posts?filter[tags.name][in]=go,rust', as('bob'))).names).toEqual(['two'])
    })

    it('a table the caller may read nothing of matches nothing; with the scope, its rows match', async () => {
      expect((await titles('/v1/posts?filter[secret.code][eq]=x1', as('alice'))).names).toEqual([])
      expect((await titles('/v1/posts?filter[secret.code][eq]=x1', as('alice', 'secrets:read'))).names).toEqual(['one'])
    })

    it('counts what it lists, in the same two statements (the page and its count)', async () => {
      let page: Awaited<ReturnType<typeof titles>> | undefined
      const statements = await statementsOf(async () => {
        page = await titles('/v1/posts?filter[tags.name][eq]=go&per_page=1&count=exact', as('alice'))
      })
      expect(page).toEqual({ names: ['one'], total: 2 })
      expect(statements).toBe(2)
      expect((await titles('/v1/posts?filter[author.name][eq]=Ada&per_page=1', as('bob'))).total).toBe(0)
    })

    it('aggregates filter alike', async () => {
      const aggregate = async (url: string, headers: Record<string, string>) => {
        const response = await app.inject({ url, headers })
        expect(response.statusCode, response.body).toBe(200)
        return response.json<{ data: { count: number }[] }>().data
      }
      // Without group_by: one group of every matching record, even of none.
      expect(await aggregate('/v1/posts/aggregates?filter[author.name][eq]=Bea', as('alice'))).toEqual([{ count: 0 }])
      expect(await aggregate('/v1/posts/aggregates?filter[tags.name][eq]=go', as('alice'))).toEqual([{ count: 2 }])
    })

    it('the tags listed under a post are those linked by links the caller may list', async () => {
      // Bob linked alice's tag to two: alice may read the tag, not the link.
      expect((await titles(`/v1/posts/${post.two}/tags`, as('alice'))).names).toEqual([])
      expect((await titles(`/v1/posts/${post.one}/tags`, as('alice'))).names).toEqual(['go'])
      // Bob's links to two: his own tag; alice's tag is not readable by him.
      expect((await titles(`/v1/posts/${post.two}/tags`, as('bob'))).names).toEqual(['rust'])
    })

    it('answers filtered across relations, and link lists, are private to the caller', async () => {
      const headersOf = async (url: string) => {
        const response = await app.inject({ url, headers: as('alice') })
        expect(response.statusCode, response.body).toBe(200)
        return { cacheControl: String(response.headers['cache-control']), vary: String(response.headers.vary) }
      }
      for (const url of [
        '/v1/posts?filter[author.name][eq]=Ada',
        '/v1/posts?filter[tags.name][eq]=go',
        '/v1/posts/aggregates?filter[author.name][eq]=Ada',
        `/v1/posts/${post.two}/tags`,
      ]) {
        const { cacheControl, vary } = await headersOf(url)
        expect(cacheControl, url).toMatch(/^private, /)
        expect(vary, url).toMatch(/Authorization/)
      }
      // Public posts without a filter across relations: the same answer for everyone.
      expect((await headersOf('/v1/posts?sort=title')).cacheControl).not.toMatch(/private/)
    })

    it('include=tags embeds the tags linked by links the caller may read, in one statement', async () => {
      const embedded = async (url: string, headers: Record<string, string>) => {
        const response = await app.inject({ url, headers })
        expect(response.statusCode, response.body).toBe(200)
        const data: { title: string; tags: { name: string }[] }[] = response.json().data
        return Object.fromEntries(data.map((row) => [row.title, row.tags.map((tag) => tag.name)]))
      }
      // Bob's link puts alice's tag on two: alice may read the tag, not the link.
      expect(await embedded('/v1/posts?include=tags&sort=title', as('alice'))).toEqual({
        one: ['go'],
        three: ['go'],
        two: [],
      })
      expect(
        (await app.inject({ url: `/v1/posts/${post.two}?include=tags`, headers: as('alice') })).json(),
      ).toMatchObject({
        data: { tags: [] },
      })
      expect(await embedded('/v1/posts?include=tags&sort=title', as('bob'))).toEqual({
        one: [],
        three: [],
        two: ['rust'],
      })
      const count = await statementsOf(() => embedded('/v1/posts?include=tags&count=none', as('alice')))
      // The page, then the tags.
      expect(count).toBe(2)
    })
  })
}
