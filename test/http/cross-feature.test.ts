import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApiServer } from '../../runtime/index.js'
import { api } from '../fixtures/cross-feature-api/generated/server.js'
import { allTables } from '../fixtures/cross-feature-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Where issue 17's features meet, over HTTP on both databases, against
 * test/fixtures/cross-feature-api: a composite unique on a soft-deleting join
 * table holds among live rows; filters across relations, includes and linked
 * lists pass soft-deleted rows by; sums and averages of decimals are exact.
 */
interface Row {
  id: number
  [field: string]: unknown
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: issue 17's features together`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    const send = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url, ...(payload ? { payload } : {}) })
    const create = async (url: string, payload: object): Promise<Row> => {
      const response = await send('POST', url, payload)
      expect(response.statusCode, response.body).toBe(201)
      return response.json().data
    }
    const remove = async (url: string) => expect((await send('DELETE', url)).statusCode).toBe(204)
    const listOf = async (url: string): Promise<Row[]> => {
      const response = await send('GET', url)
      expect(response.statusCode, response.body).toBe(200)
      return response.json().data
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildApiServer(api, { storage: storage.storage, docs: false })
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    it('a composite unique holds among live rows: a soft-deleted pair is linked again (201), restoring it is 409 naming both', async () => {
      const post = await create('/v1/posts', { title: 'Pairs' })
      const tag = await create('/v1/tags', { name: 'pair' })
      const first = await create('/v1/post-tags', { post_id: post.id, tag_id: tag.id })
      await remove(`/v1/post-tags/${first.id}`)
      const second = await create('/v1/post-tags', { post_id: post.id, tag_id: tag.id })
      const duplicate = await send('POST', '/v1/post-tags', { post_id: post.id, tag_id: tag.id })
      expect(duplicate.statusCode).toBe(409)
      const restore = await send('POST', `/v1/post-tags/${first.id}/restorations`)
      expect(restore.statusCode, restore.body).toBe(409)
      expect(restore.json()).toMatchObject({
        code: 'unique_violation',
        errors: [
          { in: 'body', pointer: '/post_id', detail: 'must be unique together with tag_id' },
          { in: 'body', pointer: '/tag_id', detail: 'must be unique together with post_id' },
        ],
      })
      await remove(`/v1/post-tags/${second.id}`)
      expect((await send('POST', `/v1/post-tags/${first.id}/restorations`)).statusCode).toBe(200)
    })

    it('filters across relations, includes and linked lists pass soft-deleted tags, links and comments by', async () => {
      const post = await create('/v1/posts', { title: 'Across' })
      const gone = await create('/v1/tags', { name: 'gone-tag' })
      const unlinked = await create('/v1/tags', { name: 'unlinked-tag' })
      const kept = await create('/v1/tags', { name: 'kept-tag' })
      await create('/v1/post-tags', { post_id: post.id, tag_id: gone.id })
      const link = await create('/v1/post-tags', { post_id: post.id, tag_id: unlinked.id })
      await create('/v1/post-tags', { post_id: post.id, tag_id: kept.id })
      await create('/v1/comments', { post_id: post.id, body: 'gone-comment' })
      const deletedComment = (await listOf(`/v1/comments?post_id=${post.id}`))[0]!
      await create('/v1/comments', { post_id: post.id, body: 'kept-comment' })

      await remove(`/v1/tags/${gone.id}`)
      await remove(`/v1/post-tags/${link.id}`)
      await remove(`/v1/comments/${deletedComment.id}`)

      const ids = async (query: string) => (await listOf(`/v1/posts?${query}`)).map((row) => row.id)
      expect(await ids('filter[tags.name][eq]=kept-tag')).toEqual([post.id])
      expect(await ids('filter[tags.name][eq]=gone-tag')).toEqual([])
      expect(await ids('filter[tags.name][eq]=unlinked-tag')).toEqual([])
      expect(await ids('filter[comments.body][eq]=kept-comment')).toEqual([post.id])
      expect(await ids('filter[comments.body][eq]=gone-comment')).toEqual([])

      const included = await send('GET', `/v1/posts/${post.id}?include=tags,comments`)
      expect(included.statusCode, included.body).toBe(200)
      const embedded = included.json().data as { tags: Row[]; comments: Row[] }
      expect(embedded.tags.map((row) => row.name)).toEqual(['kept-tag'])
      expect(embedded.comments.map((row) => row.body)).toEqual(['kept-comment'])
      const [listed] = (await listOf(`/v1/posts?filter[tags.name][eq]=kept-tag&include=tags`)) as unknown as {
        tags: Row[]
      }[]
      expect(listed!.tags.map((row) => row.name)).toEqual(['kept-tag'])
      expect((await listOf(`/v1/posts/${post.id}/tags`)).map((row) => row.name)).toEqual(['kept-tag'])
    })

    it('sums and averages decimals exactly, past 2^53, as strings; averages rounded half away from zero to the scale', async () => {
      const amounts = {
        big: ['9007199254740993.01', '9007199254740993.02', '-0.01'],
        half: ['0.01', '0.02'],
        negative: ['-0.01', '-0.02'],
        tiny: ['-0.01', '-0.01', '0.01'],
        widest: ['9999999999999999999999999999.99', '9999999999999999999999999999.99'],
      }
      for (const [account, values] of Object.entries(amounts)) {
        for (const amount of values) await create('/v1/payments', { account, amount })
      }
      const response = await send('GET', '/v1/payments/aggregates?group_by=account&aggregate[amount]=sum,avg,min,max')
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json().data).toEqual([
        {
          account: 'big',
          count: 3,
          amount: { sum: '18014398509481986.02', avg: '6004799503160662.01', min: '-0.01', max: '9007199254740993.02' },
        },
        { account: 'half', count: 2, amount: { sum: '0.03', avg: '0.02', min: '0.01', max: '0.02' } },
        { account: 'negative', count: 2, amount: { sum: '-0.03', avg: '-0.02', min: '-0.02', max: '-0.01' } },
        // -0.0033… rounds to zero, which has no sign on either database.
        { account: 'tiny', count: 3, amount: { sum: '-0.01', avg: '0.00', min: '-0.01', max: '0.01' } },
        {
          account: 'widest',
          count: 2,
          amount: {
            sum: '19999999999999999999999999999.98',
            avg: '9999999999999999999999999999.99',
            min: '9999999999999999999999999999.99',
            max: '9999999999999999999999999999.99',
          },
        },
      ])
      const none = await send('GET', '/v1/payments/aggregates?account=nobody&aggregate[amount]=sum,avg')
      expect(none.json().data).toEqual([{ count: 0, amount: { sum: null, avg: null } }])
    })
  })
}
