import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, buildServer } from '../fixtures/shop-api/generated/server.js'
import {
  allTables,
  authorsTable,
  categoriesTable,
  commentsTable,
  postsTable,
} from '../fixtures/shop-api/generated/schema.js'
import { buildApiServer } from '../../runtime/index.js'
import { includeRelations, planIncludeNames } from '../../runtime/include/include-relations.js'
import { identityTranslation } from '../../runtime/contract/version-translation.js'
import type { Row, TableDefinition } from '../../runtime/contract/table-definition.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 6, item 11: a has-many include embeds at most `limits.include_items_max`
 * records per record (the first by id), says in `meta.truncated` which arrays
 * were cut and links to the rest, still with one statement per relation.
 * The shop API (test/fixtures/shop-api) with the limit lowered to 3, so a handful of rows shows it.
 */
const ITEMS_MAX = 3

for (const dialect of DIALECTS) {
  describe(`${dialect}: bounded includes`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let category: number
    let author: number
    /** Posts with 0, ITEMS_MAX and ITEMS_MAX + 2 comments. */
    const posts: number[] = []
    const comments = new Map<number, number[]>()

    const get = async (url: string) => {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200)
      return response.json()
    }
    const insert = async (table: TableDefinition, values: Row) =>
      (await storage.storage.insert(table, values)).id as number

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildApiServer(
        { ...api, limits: { ...api.limits, includeItemsMax: ITEMS_MAX } },
        { storage: storage.storage, docs: false },
      )
      category = await insert(categoriesTable, { name: 'News' })
      author = await insert(authorsTable, { name: 'Ada' })
      for (const count of [0, ITEMS_MAX, ITEMS_MAX + 2]) {
        const post = await insert(postsTable, {
          title: `${count} comments`,
          category_id: category,
          author_id: author,
          status: 'draft',
        })
        posts.push(post)
        const ids: number[] = []
        for (let index = 0; index < count; index++)
          ids.push(await insert(commentsTable, { post_id: post, body: `c${index}` }))
        comments.set(post, ids)
      }
      // One more post by the author, so the author's posts are cut too.
      posts.push(
        await insert(postsTable, { title: 'fourth', category_id: category, author_id: author, status: 'draft' }),
      )
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    it('embeds the first include_items_max children by id and links to the nested collection for the rest', async () => {
      const cut = posts[2]!
      const body = await get(`/v1/posts/${cut}?include=comments`)
      expect(body.data.comments.map((comment: Row) => comment.id)).toEqual(comments.get(cut)!.slice(0, ITEMS_MAX))
      expect(body.meta).toEqual({
        truncated: [
          {
            pointer: '/data/comments',
            relation: 'comments',
            returned: ITEMS_MAX,
            next: `/v1/posts/${cut}/comments?page=2&per_page=${ITEMS_MAX}`,
          },
        ],
      })
      const rest = await get(body.meta.truncated[0].next)
      expect(rest.data.map((comment: Row) => comment.id)).toEqual(comments.get(cut)!.slice(ITEMS_MAX))
      expect(rest.links.next).toBeNull()
    })

    it('leaves meta out when nothing was cut, exactly at the limit too', async () => {
      const atLimit = await get(`/v1/posts/${posts[1]}?include=comments`)
      expect(Object.keys(atLimit)).toEqual(['data'])
      expect(atLimit.data.comments).toHaveLength(ITEMS_MAX)
      expect(await get('/v1/posts?per_page=10')).toMatchObject({
        meta: expect.not.objectContaining({ truncated: expect.anything() }),
      })
    })

    it('points at each cut array of a page by its index, in offset and cursor pages', async () => {
      const offset = await get('/v1/posts?include=comments,author&per_page=10')
      const index = offset.data.findIndex((row: Row) => row.id === posts[2])
      expect(offset.data.map((row: { comments: unknown[] }) => row.comments.length)).toEqual([
        0,
        ITEMS_MAX,
        ITEMS_MAX,
        0,
      ])
      const entry = {
        pointer: `/data/${index}/comments`,
        relation: 'comments',
        returned: ITEMS_MAX,
        next: `/v1/posts/${posts[2]}/comments?page=2&per_page=${ITEMS_MAX}`,
      }
      expect(offset.meta.truncated).toEqual([entry])
      // A cursor page: the cut post is the first of the second page.
      const first = await get('/v1/posts?include=comments&per_page=2')
      expect(first.meta).not.toHaveProperty('truncated')
      const second = await get(`/v1/posts?include=comments&per_page=2&cursor=${first.meta.next_cursor}`)
      expect(second.meta.truncated).toEqual([{ ...entry, pointer: '/data/0/comments' }])
    })

    it('links to the top-level collection filtered on the key when the relation is not the parent key', async () => {
      const body = await get(`/v1/authors/${author}?include=posts`)
      expect(body.data.posts.map((post: Row) => post.id)).toEqual(posts.slice(0, ITEMS_MAX))
      expect(body.meta.truncated).toEqual([
        {
          pointer: '/data/posts',
          relation: 'posts',
          returned: ITEMS_MAX,
          next: `/v1/posts?author_id=${author}&page=2&per_page=${ITEMS_MAX}`,
        },
      ])
      const rest = await get(body.meta.truncated[0].next)
      expect(rest.data.map((post: Row) => post.id)).toEqual(posts.slice(ITEMS_MAX))
    })

    it('loads each included relation in one statement whatever the page size and the number of children', async () => {
      const count = async (url: string) => {
        const before = storage.statements()
        await get(url)
        return storage.statements() - before
      }
      // The page, the count, and one per included relation, cut or not; a short page needs no count.
      expect(await count('/v1/posts?include=comments&per_page=1')).toBe(3)
      expect(await count('/v1/posts?include=comments&per_page=100')).toBe(2)
      expect(await count('/v1/posts?include=comments,author,category&per_page=100')).toBe(4)
    })

    it("cuts at a relation's own maxItems rather than the API-wide limit", async () => {
      const posts1 = {
        ...postsTable,
        relations: postsTable.relations!.map((relation) => ({ ...relation, maxItems: 1 })),
      }
      const tables = new Map(allTables.map((table) => [table.name, table.name === 'posts' ? posts1 : table]))
      const row = (await storage.storage.find(postsTable, posts[1]!))!
      const truncated = await includeRelations(storage.storage, tables, posts1, [row], ['comments'], {
        pointers: ['/data'],
        itemsMax: ITEMS_MAX,
        prefix: '/v1',
        names: planIncludeNames(identityTranslation(posts1, tables), ['comments']),
      })
      expect((row.comments as unknown as Row[]).map((comment) => comment.id)).toEqual(
        comments.get(posts[1]!)!.slice(0, 1),
      )
      expect(truncated).toEqual([
        {
          pointer: '/data/comments',
          relation: 'comments',
          returned: 1,
          next: `/v1/posts/${posts[1]}/comments?page=2&per_page=1`,
        },
      ])
    })

    it('points into nested embedded arrays (include paths two levels deep)', async () => {
      const tables = new Map(allTables.map((table) => [table.name, table]))
      const row = (await storage.storage.find(authorsTable, author))!
      const truncated = await includeRelations(storage.storage, tables, authorsTable, [row], ['posts.comments'], {
        pointers: ['/data'],
        itemsMax: ITEMS_MAX,
        prefix: '/v1',
        names: planIncludeNames(identityTranslation(authorsTable, tables), ['posts.comments']),
      })
      expect(truncated).toEqual([
        expect.objectContaining({ pointer: '/data/posts', relation: 'posts' }),
        {
          pointer: '/data/posts/2/comments',
          relation: 'posts.comments',
          returned: ITEMS_MAX,
          next: `/v1/posts/${posts[2]}/comments?page=2&per_page=${ITEMS_MAX}`,
        },
      ])
    })
  })

  describe(`${dialect}: the generated limit`, () => {
    it('embeds at most the default include_items_max of 50 children', async () => {
      const storage = await openTestStorage(dialect)
      const app = await buildServer({ storage: storage.storage, docs: false })
      try {
        expect(api.limits.includeItemsMax).toBe(50)
        const category = (await storage.storage.insert(categoriesTable, { name: 'x' })).id!
        const post = (
          await storage.storage.insert(postsTable, { title: 'busy', category_id: category, status: 'draft' })
        ).id!
        for (let index = 0; index < 51; index++)
          await storage.storage.insert(commentsTable, { post_id: post, body: `c${index}` })
        const body = (await app.inject({ method: 'GET', url: `/v1/posts/${post}?include=comments` })).json()
        expect(body.data.comments).toHaveLength(50)
        expect(body.meta.truncated).toEqual([
          {
            pointer: '/data/comments',
            relation: 'comments',
            returned: 50,
            next: `/v1/posts/${post}/comments?page=2&per_page=50`,
          },
        ])
      } finally {
        await app.close()
        await storage.dispose()
      }
    })
  })
}
