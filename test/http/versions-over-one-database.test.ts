import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/versioned-api/generated/server.js'
import { allTables } from '../fixtures/versioned-api/generated/schema.js'
import { injectJson } from '../support/inject-json.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 9, one database with a view per version: test/fixtures/versioned-api
 * serves v1 and v2 at once over the newest storage. v2 renamed a comment's
 * `body` to `content` (unique) and added the required `author_name`, which
 * comments created through v1 get as `anonymous`.
 */
const V1_COMMENT_FIELDS = ['body', 'created_at', 'id', 'post_id', 'score', 'updated_at']

for (const dialect of DIALECTS) {
  describe(`${dialect}: v1 and v2 over one database`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let post: number

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildServer({ storage: storage.storage, docs: false })
      post = (await call({ method: 'POST', url: '/v2/posts', payload: { title: 'First' } })).body.data.id
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    const call = (options: InjectOptions) => injectJson(app, options)
    const createThroughV1 = async (payload: object) => {
      const created = await call({ method: 'POST', url: `/v1/posts/${post}/comments`, payload })
      expect(created.status).toBe(201)
      return created.body.data
    }

    it('reads a comment created through v1 through v2, with the older value in the column v1 lacks', async () => {
      const created = await createThroughV1({ body: 'Written in v1' })
      expect(created).toEqual({
        id: created.id,
        body: 'Written in v1',
        score: 0,
        post_id: post,
        created_at: created.created_at,
        updated_at: created.updated_at,
      })
      const read = await call({ method: 'GET', url: `/v2/comments/${created.id}` })
      expect(read.body.data).toEqual({ ...withoutBody(created), content: 'Written in v1', author_name: 'anonymous' })
    })

    it('reads a comment created through v2 through v1, without the fields v1 does not have', async () => {
      const created = await call({
        method: 'POST',
        url: '/v2/comments',
        payload: { post_id: post, content: 'Written in v2', author_name: 'Ann', score: 3 },
      })
      expect(created.status).toBe(201)
      const read = await call({ method: 'GET', url: `/v1/posts/${post}/comments/${created.body.data.id}` })
      expect(read.body.data).toEqual({
        id: created.body.data.id,
        body: 'Written in v2',
        score: 3,
        post_id: post,
        created_at: created.body.data.created_at,
        updated_at: created.body.data.updated_at,
      })
    })

    it('leaves the columns only v2 sees as they were on a v1 PUT and PATCH', async () => {
      const created = await call({
        method: 'POST',
        url: '/v2/comments',
        payload: { post_id: post, content: 'Signed', author_name: 'Bea', score: 5 },
      })
      const id = created.body.data.id
      const replaced = await call({ method: 'PUT', url: `/v1/comments/${id}`, payload: { post_id: post, body: 'Put' } })
      expect(replaced.status).toBe(200)
      // A replacement through v1 gives v1's omitted optional fields their defaults, and nothing else.
      expect(replaced.body.data).toMatchObject({ body: 'Put', score: 0 })
      expect((await call({ method: 'GET', url: `/v2/comments/${id}` })).body.data).toMatchObject({
        content: 'Put',
        author_name: 'Bea',
        score: 0,
      })
      const patched = await call({ method: 'PATCH', url: `/v1/comments/${id}`, payload: { body: 'Patched' } })
      expect(patched.body.data).toMatchObject({ body: 'Patched', score: 0 })
      expect((await call({ method: 'GET', url: `/v2/comments/${id}` })).body.data).toMatchObject({
        content: 'Patched',
        author_name: 'Bea',
      })
    })

    it('filters, sorts, pages and includes by v1 names on v1', async () => {
      const list = await call({ method: 'POST', url: '/v2/posts', payload: { title: 'Listed' } })
      const listed = list.body.data.id as number
      for (const body of ['b-two', 'b-one', 'b-three']) {
        await call({ method: 'POST', url: `/v1/posts/${listed}/comments`, payload: { body } })
      }
      const url = `/v1/posts/${listed}/comments`
      const bodies = (response: { body: { data: { body: string }[] } }) => response.body.data.map((row) => row.body)
      expect(bodies(await call({ method: 'GET', url: `${url}?sort=-body` }))).toEqual(['b-two', 'b-three', 'b-one'])
      expect(bodies(await call({ method: 'GET', url: `${url}?body=b-one` }))).toEqual(['b-one'])
      const filtered = await call({ method: 'GET', url: `${url}?filter[body][in]=b-one,b-two&sort=body` })
      expect(bodies(filtered)).toEqual(['b-one', 'b-two'])

      const page = await call({ method: 'GET', url: `${url}?sort=body&per_page=2` })
      const cursor = encodeURIComponent(page.body.meta.next_cursor)
      const next = await call({ method: 'GET', url: `${url}?sort=body&per_page=2&cursor=${cursor}` })
      expect(bodies(next)).toEqual(['b-two'])
      const onV2 = await call({
        method: 'GET',
        url: `/v2/posts/${listed}/comments?sort=content&per_page=2&cursor=${cursor}`,
      })
      expect(onV2.body.code).toBe('invalid_cursor')

      const included = await call({ method: 'GET', url: `/v1/posts/${listed}?include=comments` })
      const embedded = included.body.data.comments as Record<string, unknown>[]
      expect(embedded.map((comment) => comment.body)).toEqual(['b-two', 'b-one', 'b-three'])
      for (const comment of embedded) expect(Object.keys(comment).sort()).toEqual(V1_COMMENT_FIELDS)
      const listWithInclude = await call({ method: 'GET', url: `/v1/posts?include=comments&filter[id][eq]=${listed}` })
      expect(listWithInclude.body.data[0].comments[0]).toMatchObject({ body: 'b-two' })
    })

    it('names v1 fields in problem details', async () => {
      await createThroughV1({ body: 'Taken' })
      const duplicate = await call({ method: 'POST', url: `/v1/posts/${post}/comments`, payload: { body: 'Taken' } })
      expect(duplicate.status).toBe(409)
      expect(duplicate.body).toMatchObject({
        code: 'unique_violation',
        detail: 'Another comment already has this body.',
        errors: [{ in: 'body', pointer: '/body', detail: 'must be unique' }],
      })
      const v2Name = await call({ method: 'POST', url: `/v1/posts/${post}/comments`, payload: { content: 'x' } })
      expect(v2Name.status).toBe(400)
      expect(JSON.stringify(v2Name.body.errors)).toContain('/body')
      const filter = await call({ method: 'GET', url: `/v1/comments?filter[content][eq]=x` })
      expect(filter.body.errors).toEqual([expect.objectContaining({ name: 'filter[content]' })])
      const sort = await call({ method: 'GET', url: '/v1/comments?sort=author_name' })
      expect(sort.body.errors[0].detail).toContain('sortable fields: body, score')
    })

    it('round-trips v1 → storage → v1: a record reads as it was sent', async () => {
      let serial = 0
      const v1Body = fc.record(
        { body: fc.string({ maxLength: 60 }), score: fc.nat({ max: 1_000_000 }) },
        { requiredKeys: ['body'] },
      )
      await fc.assert(
        fc.asyncProperty(v1Body, async (sent) => {
          const body = { ...sent, body: `${serial++}:${sent.body}` }
          const created = await createThroughV1(body)
          const expected = { score: 0, ...body, post_id: post }
          expect(created).toMatchObject(expected)
          const read = await call({ method: 'GET', url: `/v1/comments/${created.id}` })
          expect(read.body.data).toEqual(created)
          expect(Object.keys(read.body.data).sort()).toEqual(V1_COMMENT_FIELDS)
        }),
        { numRuns: 25 },
      )
    })
  })
}

function withoutBody({ body: _body, ...rest }: Record<string, unknown>): Record<string, unknown> {
  return rest
}
