import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/evolving-api/generated/server.js'
import { allTables } from '../fixtures/evolving-api/generated/schema.js'
import v1Document from '../fixtures/evolving-api/generated/v1/openapi.json' with { type: 'json' }
import { arbitraryBody, expectedRecord, type BodySchema } from '../support/arbitrary-body.js'
import { injectJson } from '../support/inject-json.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 9, every change kind served at once: test/fixtures/evolving-api's v2
 * renamed authors to writers, a book's `heading` to `title`, removed its
 * `price`, added its required `language` (`en` for v1's books), moved comments
 * from under books to the top level and removed coupons. v1 and v2 share one
 * database, whose tables are v2's plus `books.price` and `coupons`.
 */
const V1_BOOK_FIELDS = ['author_id', 'created_at', 'heading', 'id', 'pages', 'price', 'updated_at']
const V2_BOOK_FIELDS = ['created_at', 'id', 'language', 'pages', 'title', 'updated_at', 'writer_id']

for (const dialect of DIALECTS) {
  describe(`${dialect}: every change kind through v1 and v2 over one database`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let author: number
    let serial = 0

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildServer({ storage: storage.storage, docs: false })
      author = (await created({ method: 'POST', url: '/v1/authors', payload: { name: 'Ann' } })).id
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    const call = (options: InjectOptions) => injectJson(app, options)
    const created = async (options: InjectOptions) => {
      const response = await call(options)
      expect(response.status, JSON.stringify(response.body)).toBe(201)
      return response.body.data
    }
    const read = async (url: string) => (await call({ method: 'GET', url })).body
    const v1Book = (payload: object = {}) =>
      created({
        method: 'POST',
        url: '/v1/books',
        payload: { heading: `Book ${serial++}`, author_id: author, ...payload },
      })

    it('serves a renamed resource under its old path in v1 and its new one in v2, over one table', async () => {
      const writer = await read(`/v2/writers/${author}`)
      expect(writer.data).toMatchObject({ id: author, name: 'Ann' })
      expect((await call({ method: 'GET', url: '/v2/authors' })).status).toBe(404)
      expect((await call({ method: 'GET', url: '/v1/writers' })).status).toBe(404)
      const book = await v1Book()
      expect(book.author_id).toBe(author)
      expect((await read(`/v2/books/${book.id}`)).data.writer_id).toBe(author)
      const onV1 = await read(`/v1/books?author_id=${author}&heading=${encodeURIComponent(book.heading)}`)
      expect(onV1.data.map((row: { id: number }) => row.id)).toEqual([book.id])
      const inList = await read(
        `/v1/books?filter[author_id][in]=${author},999999&heading=${encodeURIComponent(book.heading)}`,
      )
      expect(inList.data).toHaveLength(1)
    })

    it('embeds included records in the version’s shape, by the version’s include names', async () => {
      const book = await v1Book({ price: 12.5 })
      const withAuthor = await read(`/v1/books/${book.id}?include=author`)
      expect(withAuthor.data.author).toMatchObject({ id: author, name: 'Ann' })
      expect(Object.keys(withAuthor.data).sort()).toEqual([...V1_BOOK_FIELDS, 'author'].sort())
      const solo = await created({ method: 'POST', url: '/v1/authors', payload: { name: 'Solo' } })
      const soloBook = await v1Book({ author_id: solo.id, price: 12.5 })
      const authorBooks = await read(`/v1/authors/${solo.id}?include=books`)
      const embedded = authorBooks.data.books.find((row: { id: number }) => row.id === soloBook.id)
      expect(Object.keys(embedded).sort()).toEqual(V1_BOOK_FIELDS)
      expect(embedded.price).toBe(12.5)
      const onV2 = await read(`/v2/books/${book.id}?include=writer`)
      expect(onV2.data.writer).toMatchObject({ id: author, name: 'Ann' })
      expect(Object.keys(onV2.data).sort()).toEqual([...V2_BOOK_FIELDS, 'writer'].sort())
      const listed = await read(`/v1/books?include=author&heading=${encodeURIComponent(book.heading)}`)
      expect(listed.data[0].author.name).toBe('Ann')
      const v2Name = await call({ method: 'GET', url: `/v1/books/${book.id}?include=writer` })
      expect(v2Name.status).toBe(400)
      expect(v2Name.body.errors[0]).toMatchObject({ name: 'include' })
      expect(v2Name.body.errors[0].detail).toContain('allowed paths: author, comments')
    })

    it('names what an include cut short as each version does', async () => {
      const prolific = await created({ method: 'POST', url: '/v1/authors', payload: { name: 'Prolific' } })
      for (let count = 0; count < 3; count++) await v1Book({ author_id: prolific.id })
      const onV1 = await read(`/v1/authors/${prolific.id}?include=books`)
      expect(onV1.data.books).toHaveLength(2)
      expect(onV1.meta.truncated).toEqual([
        {
          pointer: '/data/books',
          relation: 'books',
          returned: 2,
          next: `/v1/books?author_id=${prolific.id}&page=2&per_page=2`,
        },
      ])
      const onV2 = await read(`/v2/writers?include=books&name=Prolific`)
      expect(onV2.meta.truncated).toEqual([
        {
          pointer: '/data/0/books',
          relation: 'books',
          returned: 2,
          next: `/v2/books?writer_id=${prolific.id}&page=2&per_page=2`,
        },
      ])
    })

    it('links each v1 route to the same resource in v2, wherever it moved, and a removed one to none', async () => {
      const book = await v1Book()
      const comment = await created({ method: 'POST', url: `/v1/books/${book.id}/comments`, payload: { text: 'Hm' } })
      const successor = async (url: string, method: 'GET' | 'PUT' | 'DELETE' = 'GET') => {
        const link = (await app.inject({ method, url })).headers.link as string
        return /<([^>]+)>; rel="successor-version"/.exec(link)?.[1] ?? null
      }
      expect(await successor(`/v1/authors/${author}`)).toBe(`/v2/writers/${author}`)
      expect(await successor(`/v1/authors/${author}/coupons`)).toBeNull()
      expect(await successor(`/v1/books/${book.id}/comments/${comment.id}`)).toBe(`/v2/comments/${comment.id}`)
      expect(await successor(`/v1/books/${book.id}`)).toBe(`/v2/books/${book.id}`)
      // A 405 matches no route, yet names a moved one: its successor is where that route went, never a v2 path that is not served.
      expect(await successor('/v1/authors', 'DELETE')).toBe('/v2/writers')
      expect(await successor(`/v1/books/${book.id}/comments`, 'PUT')).toBe(`/v2/comments?book_id=${book.id}`)
      expect(await successor(`/v1/authors/${author}/coupons`, 'PUT')).toBeNull()
      expect(await successor('/v1/books', 'DELETE')).toBe('/v2/books')
    })

    it('keeps a removed field for v1: v2 neither shows nor touches it', async () => {
      const book = await v1Book({ price: 9.5, pages: 100 })
      const onV2 = await read(`/v2/books/${book.id}`)
      expect(Object.keys(onV2.data).sort()).toEqual(V2_BOOK_FIELDS)
      expect(onV2.data.language).toBe('en')
      const replaced = await call({
        method: 'PUT',
        url: `/v2/books/${book.id}`,
        payload: { title: `Replaced ${serial++}`, writer_id: author, language: 'de' },
      })
      expect(replaced.status).toBe(200)
      expect(replaced.body.data).not.toHaveProperty('price')
      expect((await read(`/v1/books/${book.id}`)).data).toMatchObject({ price: 9.5, pages: null })
      const v2Filter = await call({ method: 'GET', url: '/v2/books?filter[price][eq]=1' })
      expect(v2Filter.status).toBe(400)
    })

    it('leaves the column only v2 has as it was on a v1 PUT and PATCH, and fills it on a v1 create', async () => {
      const v2Book = await created({
        method: 'POST',
        url: '/v2/books',
        payload: { title: `German ${serial++}`, writer_id: author, language: 'de' },
      })
      expect((await read(`/v1/books/${v2Book.id}`)).data.price).toBeNull()
      const put = await call({
        method: 'PUT',
        url: `/v1/books/${v2Book.id}`,
        payload: { heading: `Put ${serial++}`, author_id: author, price: 3 },
      })
      expect(put.status).toBe(200)
      await call({ method: 'PATCH', url: `/v1/books/${v2Book.id}`, payload: { pages: 7 } })
      expect((await read(`/v2/books/${v2Book.id}`)).data).toMatchObject({ language: 'de', pages: 7 })
      expect((await read(`/v1/books/${v2Book.id}`)).data).toMatchObject({ price: 3, pages: 7 })
    })

    it('serves a re-rooted resource nested under its old parent in v1 and top-level only in v2', async () => {
      const book = await v1Book()
      const comment = await created({ method: 'POST', url: `/v1/books/${book.id}/comments`, payload: { text: 'Hi' } })
      expect(comment).toMatchObject({ text: 'Hi', book_id: book.id })
      expect((await read(`/v1/books/${book.id}/comments/${comment.id}`)).data).toEqual(comment)
      expect((await read(`/v1/comments/${comment.id}`)).data).toEqual(comment)
      expect((await read(`/v2/comments/${comment.id}?include=book`)).data.book.title).toBe(book.heading)
      expect((await call({ method: 'GET', url: `/v2/books/${book.id}/comments` })).status).toBe(404)
      const v2Comment = await created({
        method: 'POST',
        url: '/v2/comments',
        payload: { text: 'Yo', book_id: book.id },
      })
      const nested = await read(`/v1/books/${book.id}/comments?sort=-id`)
      expect(nested.data.map((row: { id: number }) => row.id)).toEqual([v2Comment.id, comment.id])
      const withComments = await read(`/v1/books/${book.id}?include=comments`)
      expect(withComments.data.comments).toHaveLength(2)
      const missing = await call({ method: 'GET', url: '/v1/books/999999/comments' })
      expect(missing.body).toMatchObject({ code: 'not_found', detail: 'No book with id 999999.' })
    })

    it('serves a removed resource in v1 only, over the table the storage keeps', async () => {
      const coupon = await created({
        method: 'POST',
        url: `/v1/authors/${author}/coupons`,
        payload: { code: `C${serial++}` },
      })
      expect(coupon).toMatchObject({ author_id: author, percent: 10 })
      expect((await read(`/v1/coupons/${coupon.id}`)).data).toEqual(coupon)
      expect((await call({ method: 'GET', url: '/v2/coupons' })).status).toBe(404)
      const missing = await call({ method: 'GET', url: '/v1/authors/999999/coupons' })
      expect(missing.body).toMatchObject({ code: 'not_found', detail: 'No author with id 999999.' })
      const writer = await created({ method: 'POST', url: '/v2/writers', payload: { name: 'Gone' } })
      const doomed = await created({
        method: 'POST',
        url: `/v1/authors/${writer.id}/coupons`,
        payload: { code: `D${serial++}` },
      })
      expect((await call({ method: 'DELETE', url: `/v2/writers/${writer.id}` })).status).toBe(204)
      expect((await call({ method: 'GET', url: `/v1/coupons/${doomed.id}` })).status).toBe(404)
    })

    it('sorts and pages by v1 names with cursors bound to v1', async () => {
      const writer = await created({ method: 'POST', url: '/v1/authors', payload: { name: 'Pager' } })
      for (const heading of ['p-b', 'p-c', 'p-a']) {
        await created({
          method: 'POST',
          url: '/v1/books',
          payload: { heading: `${heading}-${writer.id}`, author_id: writer.id },
        })
      }
      const url = `/v1/books?author_id=${writer.id}&sort=-heading&per_page=2`
      const first = await read(url)
      const headings = (page: { data: { heading: string }[] }) => page.data.map((row) => row.heading.slice(0, 3))
      expect(headings(first)).toEqual(['p-c', 'p-b'])
      const next = await read(`${url}&cursor=${encodeURIComponent(first.meta.next_cursor)}`)
      expect(headings(next)).toEqual(['p-a'])
      const onV2 = await call({
        method: 'GET',
        url: `/v2/books?writer_id=${writer.id}&sort=-title&per_page=2&cursor=${encodeURIComponent(first.meta.next_cursor)}`,
      })
      expect(onV2.body.code).toBe('invalid_cursor')
    })

    it('names v1 fields, parameters and resources in problem details', async () => {
      const book = await v1Book()
      const duplicate = await call({
        method: 'POST',
        url: '/v1/books',
        payload: { heading: book.heading, author_id: author },
      })
      expect(duplicate.body).toMatchObject({
        code: 'unique_violation',
        detail: 'Another book already has this heading.',
        errors: [{ in: 'body', pointer: '/heading', detail: 'must be unique' }],
      })
      const noAuthor = await call({ method: 'POST', url: '/v1/books', payload: { heading: 'x', author_id: 999999 } })
      expect(noAuthor.body).toMatchObject({
        detail: 'author_id does not name an existing author.',
        errors: [{ in: 'body', pointer: '/author_id', detail: 'no author has this id' }],
      })
      // coupons is v1's own table, yet its key references the table v2 renamed: still v1's name for it.
      const noCouponAuthor = await call({
        method: 'POST',
        url: '/v1/coupons',
        payload: { code: 'y', author_id: 999999 },
      })
      expect(noCouponAuthor.body).toMatchObject({
        detail: 'author_id does not name an existing author.',
        errors: [{ in: 'body', pointer: '/author_id', detail: 'no author has this id' }],
      })
      const v2Field = await call({ method: 'POST', url: '/v1/books', payload: { title: 'x', author_id: author } })
      expect(JSON.stringify(v2Field.body.errors)).toContain('/heading')
      const filter = await call({ method: 'GET', url: '/v1/books?filter[writer_id][eq]=1' })
      expect(filter.body.errors).toEqual([expect.objectContaining({ name: 'filter[writer_id]' })])
      const sort = await call({ method: 'GET', url: '/v1/books?sort=title' })
      expect(sort.body.errors[0].detail).toContain('sortable fields: heading, pages')
      expect((await call({ method: 'GET', url: '/v1/authors/999999' })).body.detail).toBe('No author with id 999999.')
    })

    it.each([
      ['books', 'BookCreate', (): string => '/v1/books', ['author_id'], ['heading']],
      ['coupons', 'CouponNestedCreate', (): string => `/v1/authors/${author}/coupons`, [], ['code']],
      ['authors', 'AuthorCreate', (): string => '/v1/authors', [], []],
    ] as const)(
      'round-trips v1 → storage → v1 for %s: a record generated from the v1 schema reads as it was sent',
      async (resource, schemaName, collection, fixed, unique) => {
        const schema = v1Document.components.requestBodies[schemaName].content['application/json'].schema as BodySchema
        await fc.assert(
          fc.asyncProperty(arbitraryBody(schema, { fixed, unique }), async (generated) => {
            const sent: Record<string, unknown> = { ...generated }
            for (const name of unique) sent[name] = `${serial++}:${String(sent[name])}`
            if (fixed.length > 0) sent.author_id = author
            const record = await created({ method: 'POST', url: collection(), payload: sent })
            const expected = expectedRecord(schema, sent)
            expect(Object.fromEntries(Object.keys(expected).map((name) => [name, record[name]]))).toEqual(expected)
            const again = await read(`/v1/${resource}/${record.id}`)
            expect(again.data).toEqual(record)
          }),
          { numRuns: 20 },
        )
      },
    )
  })
}
