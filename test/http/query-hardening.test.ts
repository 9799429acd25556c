import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { createCursorCodec } from '../../runtime/query/page-cursor.js'
import type { ColumnValue } from '../../runtime/index.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

const SECRET = 'query-hardening test secret'

/** Hostile query strings and cursors (issue #6, items 1, 2, 3, 14, 15 and 24): 400 problems or correct pages, never 5xx. */
for (const dialect of DIALECTS) {
  describe(`${dialect}: hostile queries`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let postIds: number[]
    const categoryIds: number[] = []

    const get = async (url: string) => {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode, `GET ${url} must never be a 5xx`).toBeLessThan(500)
      if (response.statusCode >= 400)
        expect(response.headers['content-type'], url).toContain('application/problem+json')
      return { status: response.statusCode, body: JSON.parse(response.body) }
    }
    const post = async (url: string, payload: object) => {
      const response = await app.inject({ method: 'POST', url, payload })
      expect(response.statusCode, response.body).toBe(201)
      return JSON.parse(response.body).data as { id: number }
    }
    const ids = (body: { data: { id: number }[] }) => body.data.map((row) => row.id)
    /** A cursor the server would accept but never issued: another position for the same shape, signed with its key. */
    const forge = (cursor: string, position: ColumnValue[]) => {
      const [shape] = JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString('utf8')) as [string]
      return createCursorCodec(SECRET).encode(shape, position)
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildServer({ storage: storage.storage, docs: false, cursorSecret: SECRET })
      for (const name of ['News', 'Tips']) categoryIds.push((await post('/v1/categories', { name })).id)
      const author = await post('/v1/authors', { name: 'Ada' })
      postIds = []
      for (let index = 0; index < 8; index++) {
        const created = await post('/v1/posts', {
          title: `post ${index}`,
          price: index % 3 === 0 ? null : index,
          status: index % 2 === 0 ? 'draft' : 'published',
          author_id: author.id,
          category_id: categoryIds[index % 2],
        })
        postIds.push(created.id)
      }
      for (const body of ['a', 'b', 'c']) await post(`/v1/posts/${postIds[0]}/comments`, { body })
      await post(`/v1/posts/${postIds[1]}/comments`, { body: 'd' })
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    describe('cursors (item 1)', () => {
      it('refuses signed positions that do not fit the sort keys: nulls where none is stored, wrong lengths and types', async () => {
        const first = await get('/v1/posts?sort=-id&per_page=2')
        const cursor: string = first.body.meta.next_cursor
        const priced = (await get('/v1/posts?sort=-price&per_page=2')).body.meta.next_cursor as string
        const cases: [string, string][] = [
          ['sort=-id', forge(cursor, [null, 1])],
          ['sort=-id', forge(cursor, [null, null])],
          ['sort=-id', forge(cursor, [3])],
          ['sort=-id', forge(cursor, [3, 3, 3])],
          ['sort=-id', forge(cursor, ['3', 3])],
          ['sort=-id', forge(cursor, [1.5, 1.5])],
          ['sort=-id', forge(cursor, [true, 1])],
          ['sort=-price', forge(priced, ['cheap', 1])],
          ['sort=-price', forge(priced, [null, null])],
          ['sort=-price', forge(priced, [1, -0.5])],
        ]
        for (const [sort, forged] of cases) {
          const response = await get(`/v1/posts?${sort}&per_page=2&cursor=${forged}`)
          expect(response.status, `${sort} ${forged}`).toBe(400)
          expect(response.body.code).toBe('invalid_cursor')
        }
      })

      it('continues from a NULL position in the documented order (NULL last descending, first ascending)', async () => {
        const all = (await get('/v1/posts?sort=-price&per_page=100')).body.data as {
          id: number
          price: number | null
        }[]
        const firstNull = all.findIndex((row) => row.price === null)
        const cursor = (await get('/v1/posts?sort=-price&per_page=1')).body.meta.next_cursor as string
        const page = await get(`/v1/posts?sort=-price&per_page=100&cursor=${forge(cursor, [null, all[firstNull]!.id])}`)
        expect(page.status).toBe(200)
        expect(ids(page.body)).toEqual(all.slice(firstNull + 1).map((row) => row.id))
        const ascending = (await get('/v1/posts?sort=price&per_page=100')).body.data as {
          id: number
          price: number | null
        }[]
        const ascendingCursor = (await get('/v1/posts?sort=price&per_page=1')).body.meta.next_cursor as string
        const lastNull = ascending.map((row) => row.price).lastIndexOf(null)
        const after = await get(
          `/v1/posts?sort=price&per_page=100&cursor=${forge(ascendingCursor, [null, ascending[lastNull]!.id])}`,
        )
        expect(ids(after.body)).toEqual(ascending.slice(lastNull + 1).map((row) => row.id))
      })

      it('binds a cursor to its collection: another resource, parent or nesting refuses it', async () => {
        const posts = (await get('/v1/posts?per_page=1')).body.meta.next_cursor as string
        expect((await get('/v1/categories?per_page=1')).body.meta.next_cursor).not.toBeNull()
        const nested = (await get(`/v1/posts/${postIds[0]}/comments?per_page=1`)).body.meta.next_cursor as string
        for (const url of [
          `/v1/categories?per_page=1&cursor=${posts}`,
          `/v1/comments?per_page=1&cursor=${nested}`,
          `/v1/posts/${postIds[1]}/comments?per_page=1&cursor=${nested}`,
        ]) {
          const response = await get(url)
          expect(response.status, url).toBe(400)
          expect(response.body.code, url).toBe('invalid_cursor')
        }
        expect((await get(`/v1/posts/${postIds[0]}/comments?per_page=1&cursor=${nested}`)).status).toBe(200)
      })

      it('accepts only cursors signed with its secret, so every instance needs the same one', async () => {
        const cursor = (await get('/v1/posts?per_page=1')).body.meta.next_cursor as string
        const [body] = cursor.split('.')
        const [shape, position] = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as [
          string,
          ColumnValue[],
        ]
        const other = createCursorCodec('another secret').encode(shape, position)
        expect((await get(`/v1/posts?per_page=1&cursor=${other}`)).body.code).toBe('invalid_cursor')
        const sibling = await buildServer({ storage: storage.storage, docs: false, cursorSecret: SECRET })
        try {
          expect(
            (await sibling.inject({ method: 'GET', url: `/v1/posts?per_page=1&cursor=${cursor}` })).statusCode,
          ).toBe(200)
        } finally {
          await sibling.close()
        }
        const unsigned = `${body}.${Buffer.from('x'.repeat(32)).toString('base64url')}`
        expect((await get(`/v1/posts?per_page=1&cursor=${unsigned}`)).body.code).toBe('invalid_cursor')
      })
    })

    describe('query strings (items 2 and 3)', () => {
      it('refuses more parameters than the limit, naming it, rather than dropping the rest', async () => {
        const many = Array.from({ length: 201 }, (_, index) => `filter[price][gte]=${index}`).join('&')
        const response = await get(`/v1/posts?${many}`)
        expect(response.status).toBe(400)
        expect(response.body.errors).toEqual([
          { in: 'query', detail: 'the query string has 201 parameters; at most 200 are accepted' },
        ])
      })

      it('refuses brackets nested too deep, malformed names and malformed percent-encoding', async () => {
        const cases: [string, string, RegExp][] = [
          ['filter[price][gte][0]=1', 'filter[price][gte][0]', /at most 2/],
          ['filter[status][in][]=draft', 'filter[status][in][]', /at most 2/],
          ['filter[price=1', 'filter[price', /not a parameter name/],
          ['=1', '', /not a parameter name/],
          ['status=%ff', 'status', /percent-encoded/],
          ['per_page=1&per_page[x]=2', 'per_page[x]', /both as a plain value and with brackets/],
        ]
        for (const [query, name, detail] of cases) {
          const response = await get(`/v1/posts?${query}`)
          expect(response.status, query).toBe(400)
          expect(response.body.errors, query).toEqual([{ in: 'query', name, detail: expect.stringMatching(detail) }])
        }
      })

      it('refuses prototype-named keys like any unknown name, on every endpoint', async () => {
        for (const query of ['toString=1', 'constructor=1', '__proto__=1', 'hasOwnProperty=1', 'valueOf=x']) {
          for (const url of ['/v1/posts', `/v1/posts/${postIds[0]}`]) {
            const response = await get(`${url}?${query}`)
            expect(response.status, `${url}?${query}`).toBe(400)
            expect(response.body.errors[0].name, `${url}?${query}`).toBe(query.split('=')[0])
          }
          const created = await app.inject({ method: 'POST', url: `/v1/categories?${query}`, payload: { name: query } })
          expect(created.statusCode, query).toBe(400)
        }
        for (const query of [
          'filter[__proto__][x]=1',
          'filter[constructor][eq]=1',
          'filter[toString]=1',
          'filter[price][__proto__]=1',
          'filter[price][constructor]=1',
        ]) {
          const response = await get(`/v1/posts?${query}`)
          expect(response.status, query).toBe(400)
          expect(response.body.errors[0].name, query).toMatch(/^filter\[(__proto__|constructor|toString|price)\]/)
        }
        for (const query of ['include=__proto__', 'include=constructor', 'sort=__proto__', 'sort=-constructor']) {
          const response = await get(`/v1/posts?${query}`)
          expect(response.status, query).toBe(400)
          expect(response.body.errors[0].name, query).toBe(query.split('=')[0])
        }
      })
    })

    describe('enums and documented ranges (item 14)', () => {
      it('refuses filter values outside the field enum, listing the allowed values, or not of its format', async () => {
        for (const [url, name] of [
          ['/v1/posts?status=nope', 'status'],
          ['/v1/posts?filter[status][in]=draft,nope', 'filter[status][in]'],
          ['/v1/orders?filter[status][ne]=lost', 'filter[status][ne]'],
          ['/v1/orders?filter[status][eq]=lost', 'filter[status][eq]'],
        ] as const) {
          const response = await get(url)
          expect(response.status, url).toBe(400)
          expect(response.body.errors, url).toEqual([
            { in: 'query', name, detail: expect.stringMatching(/^must be one of "/) },
          ])
        }
        const email = await get('/v1/authors?email=not-an-email')
        expect(email.body.errors).toEqual([
          { in: 'query', name: 'email', detail: 'must be a valid email; got "not-an-email"' },
        ])
        expect((await get('/v1/authors?filter[email][contains]=not-an-email')).status).toBe(200)
        expect((await get('/v1/authors?email=ada@example.com')).status).toBe(200)
        expect((await get('/v1/posts?status=draft')).status).toBe(200)
        expect((await get('/v1/orders?filter[status][ne]=paid')).status).toBe(200)
        // Text matches are not values of the field.
        expect((await get('/v1/orders?filter[status][contains]=ai')).status).toBe(200)
      })

      it('refuses a value listed twice in an in list, as the document declares its items unique', async () => {
        const response = await get('/v1/posts?filter[status][in]=draft,draft')
        expect(response.status).toBe(400)
        expect(response.body.errors[0]).toMatchObject({
          name: 'filter[status][in]',
          detail: expect.stringContaining('twice'),
        })
      })

      it('accepts every page number the document allows, and refuses those past it', async () => {
        const far = await get('/v1/posts?page=1000000000')
        expect(far.status).toBe(200)
        expect(far.body.data).toEqual([])
        expect((await get('/v1/posts?page=90071992547409&per_page=100')).status).toBe(200)
        const past = await get('/v1/posts?page=90071992547410')
        expect(past.status).toBe(400)
        expect(past.body.errors[0]).toMatchObject({ name: 'page', detail: 'must be <= 90071992547409' })
        expect((await get(`/v1/posts?page=${'9'.repeat(400)}`)).status).toBe(400)
      })
    })

    describe('repeated list parameters (item 15)', () => {
      it('reads include, sort and in lists given repeatedly like their comma forms', async () => {
        const pairs: [string, string][] = [
          ['include=author&include=category', 'include=author,category'],
          ['include=author,category&include=comments', 'include=author,category,comments'],
          ['sort=-price&sort=title', 'sort=-price,title'],
          [
            'filter[status][in]=draft&filter[status][in]=published&sort=-id',
            'filter[status][in]=draft,published&sort=-id',
          ],
          [
            'filter[category_id][in]=' + categoryIds[0] + '&filter[category_id][in]=' + categoryIds[1],
            `filter[category_id][in]=${categoryIds.join(',')}`,
          ],
        ]
        for (const [repeated, comma] of pairs) {
          const [a, b] = [await get(`/v1/posts?${repeated}&per_page=100`), await get(`/v1/posts?${comma}&per_page=100`)]
          expect(a.status, repeated).toBe(200)
          expect(a.body.data, repeated).toEqual(b.body.data)
        }
        const single = await get(`/v1/posts/${postIds[0]}?include=author&include=comments`)
        expect(single.body.data.comments).toHaveLength(3)
        expect(single.body.data.author).toMatchObject({ name: 'Ada' })
      })

      it('still refuses other parameters given twice', async () => {
        const cursor = (await get('/v1/posts?per_page=1')).body.meta.next_cursor as string
        for (const query of [
          'per_page=1&per_page=2',
          `cursor=${cursor}&cursor=${cursor}`,
          'status=draft&status=published',
          'filter[price][gte]=1&filter[price][gte]=2',
        ]) {
          const response = await get(`/v1/posts?${query}`)
          expect(response.status, query).toBe(400)
          expect(response.body.code, query).toBe('validation_failed')
        }
      })
    })

    it('says "1 character", not "1 characters" (item 24)', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/posts',
        payload: { title: '', category_id: categoryIds[0] },
      })
      expect(JSON.parse(response.body).errors).toEqual([
        { in: 'body', pointer: '/title', detail: 'must be at least 1 character long' },
      ])
    })
  })
}
