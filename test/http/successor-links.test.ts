import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/evolving-api/generated/server.js'
import { allTables } from '../fixtures/evolving-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 9: the `rel="successor-version"` link of a deprecated version's
 * re-rooted collection names the same records in the successor, as the
 * migration guide's endpoint table does: test/fixtures/evolving-api moved
 * comments from under books to the top level, where `?book_id=` keeps to one
 * book's.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: successor-version links of re-rooted routes`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildServer({ storage: storage.storage, docs: false })
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    const create = async (url: string, payload: object) => {
      const response = await app.inject({ method: 'POST', url, payload })
      expect(response.statusCode, response.body).toBe(201)
      return response.json().data as { id: number }
    }

    it("links a nested collection to the top-level one, filtered on the old parent's key", async () => {
      const author = await create('/v1/authors', { name: 'Ann' })
      const book = await create('/v1/books', { heading: 'One', author_id: author.id })
      const other = await create('/v1/books', { heading: 'Two', author_id: author.id })
      await create(`/v1/books/${book.id}/comments`, { text: 'Mine' })
      await create(`/v1/books/${other.id}/comments`, { text: 'Not mine' })
      const nested = await app.inject({ url: `/v1/books/${book.id}/comments` })
      const successor = /<([^>]+)>; rel="successor-version"/.exec(nested.headers.link as string)?.[1]
      expect(successor).toBe(`/v2/comments?book_id=${book.id}`)
      const onV2 = await app.inject({ url: successor! })
      expect(onV2.statusCode, onV2.body).toBe(200)
      expect(onV2.json().data.map((comment: { text: string }) => comment.text)).toEqual(['Mine'])
    })
  })
}
