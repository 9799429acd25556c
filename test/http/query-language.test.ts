import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

interface Post {
  id: number
  title: string
  price: number | null
  status: string
  published_at: string | null
  author_id: number | null
  category_id: number
  created_at: string
  [member: string]: unknown
}

/** Filters, sort, offset and cursor pagination, includes and caching on the generated shop API (test/fixtures/shop-api; issue #3). */
for (const dialect of DIALECTS) {
  describe(`${dialect}: query language`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let posts: Post[]
    const categories: number[] = []
    const authors: number[] = []

    const call = async (options: InjectOptions) => {
      const response = await app.inject(options)
      expect(response.statusCode, `${options.method} ${options.url} must never be a 500`).toBeLessThan(500)
      return {
        status: response.statusCode,
        headers: response.headers,
        body: response.body ? JSON.parse(response.body) : null,
      }
    }
    const get = (url: string) => call({ method: 'GET', url })
    const post = async (url: string, payload: object) => {
      const response = await call({ method: 'POST', url, payload })
      expect(response.status, JSON.stringify(response.body)).toBe(201)
      return response.body.data
    }
    const ids = (rows: { id: number }[]) => rows.map((row) => row.id)
    /** The expected order: keys, then id in the direction of the last key. */
    const ordered = (rows: Post[], ...keys: [keyof Post, 1 | -1][]) => {
      const tiebreak = keys.at(-1)?.[1] ?? 1
      return [...rows].sort((a, b) => {
        for (const [key, direction] of keys) {
          const [x, y] = [a[key], b[key]]
          if (x === y) continue
          if (x === null) return -direction
          if (y === null) return direction
          return (x! < y! ? -1 : 1) * direction
        }
        return (a.id - b.id) * tiebreak
      })
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildServer({ storage: storage.storage, docs: false })
      for (const name of ['News', 'Tips', 'Reviews']) categories.push((await post('/v1/categories', { name })).id)
      for (const name of ['Ada', 'Grace', 'Linus']) authors.push((await post('/v1/authors', { name })).id)
      const titles = ['Alpha', 'beta 100%', 'Gamma_ray', 'delta', 'Epsilon', 'alphabet', 'Zeta', 'eta', 'Theta', 'iota']
      for (let index = 0; index < 30; index++) {
        await post('/v1/posts', {
          title: `${titles[index % titles.length]} ${index}`,
          price: index % 7 === 0 ? null : (index * 37) % 100,
          status: index % 3 === 0 ? 'published' : 'draft',
          published_at: index % 4 === 0 ? null : `2026-0${1 + (index % 9)}-15T10:00:00Z`,
          author_id: index % 5 === 0 ? null : authors[index % authors.length],
          category_id: categories[index % categories.length],
        })
      }
      posts = (await get('/v1/posts?per_page=100')).body.data
      expect(posts).toHaveLength(30)
      const post0 = posts[0]!.id
      await post(`/v1/posts/${post0}/comments`, { body: 'first' })
      await post(`/v1/posts/${post0}/comments`, { body: 'second' })
    })
    afterAll(async () => {
      // Optional: when beforeAll failed, its error is the one to read.
      await app?.close()
      await storage?.dispose()
    })

    describe('filters', () => {
      it('filters exactly by field, several combining with AND', async () => {
        const published = await get('/v1/posts?status=published&per_page=100')
        expect(ids(published.body.data)).toEqual(ids(posts.filter((row) => row.status === 'published')))
        const both = await get(`/v1/posts?status=published&author_id=${authors[0]}&per_page=100`)
        expect(ids(both.body.data)).toEqual(
          ids(posts.filter((row) => row.status === 'published' && row.author_id === authors[0])),
        )
        expect(both.body.meta.total).toBe(both.body.data.length)
      })

      it('applies range, list, text and null operators', async () => {
        const cases: [string, (row: Post) => boolean][] = [
          ['filter[price][gte]=50', (row) => row.price !== null && row.price >= 50],
          [
            'filter[price][gte]=20&filter[price][lte]=60',
            (row) => row.price !== null && row.price >= 20 && row.price <= 60,
          ],
          ['filter[status][in]=draft,published', () => true],
          [
            `filter[author_id][in]=${authors[0]},${authors[2]}`,
            (row) => row.author_id === authors[0] || row.author_id === authors[2],
          ],
          ['filter[title][contains]=ALPHA', (row) => row.title.toLowerCase().includes('alpha')],
          ['filter[title][contains]=100%25', (row) => row.title.includes('100%')],
          ['filter[title][contains]=a_r', (row) => row.title.toLowerCase().includes('a_r')],
          ['filter[title][starts_with]=e', (row) => row.title.toLowerCase().startsWith('e')],
          ['filter[published_at][null]=true', (row) => row.published_at === null],
          [
            'filter[published_at][null]=false&filter[published_at][gte]=2026-05-01T00:00:00Z',
            (row) => row.published_at !== null && row.published_at >= '2026-05-01',
          ],
        ]
        for (const [query, keep] of cases) {
          const response = await get(`/v1/posts?${query}&per_page=100`)
          expect(response.status, query).toBe(200)
          expect(ids(response.body.data), query).toEqual(ids(posts.filter(keep)))
        }
      })

      it('rejects unknown fields, disallowed operators and malformed values, naming the parameter', async () => {
        const unknown = await get('/v1/posts?filter[colour][eq]=red')
        expect(unknown.status).toBe(400)
        expect(unknown.body.errors).toEqual([
          { in: 'query', name: 'filter[colour]', detail: expect.stringContaining('price (eq, gte, lte)') },
        ])
        const operator = await get('/v1/posts?filter[price][contains]=1')
        expect(operator.body.errors).toEqual([
          {
            in: 'query',
            name: 'filter[price][contains]',
            detail: 'operator contains is not allowed on price; allowed: eq, gte, lte',
          },
        ])
        for (const query of [
          'filter[price][gte]=cheap',
          'price=1e',
          'filter[published_at][gte]=yesterday',
          'filter[published_at][null]=maybe',
          `filter[author_id][in]=1,x`,
        ]) {
          const response = await get(`/v1/posts?${query}`)
          expect(response.status, query).toBe(400)
          expect(response.body.errors[0].name, query).toBe(query.split('=')[0])
        }
        expect((await get('/v1/posts?body=x')).status).toBe(400)
        expect((await get('/v1/posts?status=draft&status=published')).status).toBe(400)
      })
    })

    describe('sort', () => {
      it('sorts by several keys with id as the final tiebreaker', async () => {
        const response = await get('/v1/posts?sort=-price,title&per_page=100')
        expect(ids(response.body.data)).toEqual(ids(ordered(posts, ['price', -1], ['title', 1])))
        const byStatus = await get('/v1/posts?sort=status&per_page=100')
        expect(ids(byStatus.body.data)).toEqual(ids(ordered(posts, ['status', 1])))
      })

      it('rejects unknown, non-sortable, empty and repeated keys, listing the sortable fields', async () => {
        for (const sort of ['colour', 'body', 'price,', '-', 'price,-price']) {
          const response = await get(`/v1/posts?sort=${sort}`)
          expect(response.status, sort).toBe(400)
          expect(response.body.errors[0]).toMatchObject({
            name: 'sort',
            detail: expect.stringContaining('sortable fields: '),
          })
        }
      })
    })

    describe('pagination', () => {
      it('cuts the filtered, sorted set into pages', async () => {
        const expected = ordered(
          posts.filter((row) => row.status === 'draft'),
          ['title', -1],
        )
        const page = await get('/v1/posts?status=draft&sort=-title&page=2&per_page=5')
        expect(ids(page.body.data)).toEqual(ids(expected.slice(5, 10)))
        expect(page.body.meta).toMatchObject({ page: 2, per_page: 5, total: expected.length })
        expect(page.body.links.next).toBe('/v1/posts?status=draft&sort=-title&page=3&per_page=5')
        expect(typeof page.body.meta.next_cursor).toBe('string')
      })

      it('walks a whole collection by cursor, omitting total, with next_cursor null at the end', async () => {
        for (const sort of ['-price', 'published_at,-title', 'title']) {
          const seen: number[] = []
          let url: string | null = `/v1/posts?sort=${sort}&per_page=7`
          let first = true
          while (url) {
            const response = await get(url)
            expect(response.status, url).toBe(200)
            if (!first) expect(response.body.meta).not.toHaveProperty('total')
            seen.push(...ids(response.body.data))
            url =
              response.body.links.next && response.body.meta.next_cursor
                ? `/v1/posts?sort=${sort}&per_page=7&cursor=${response.body.meta.next_cursor}`
                : null
            first = false
          }
          const keys = sort
            .split(',')
            .map((key): [keyof Post, 1 | -1] => (key.startsWith('-') ? [key.slice(1), -1] : [key, 1]))
          expect(seen, sort).toEqual(ids(ordered(posts, ...keys)))
        }
      })

      it('rejects garbage, edited and replayed cursors, and page with cursor', async () => {
        const first = await get('/v1/posts?sort=-price&per_page=5')
        const cursor: string = first.body.meta.next_cursor
        const edited = cursor.slice(0, 3) + (cursor[3] === 'A' ? 'B' : 'A') + cursor.slice(4)
        for (const url of [
          '/v1/posts?sort=-price&cursor=garbage',
          `/v1/posts?sort=-price&cursor=${edited}`,
          `/v1/posts?sort=price&cursor=${cursor}`,
          `/v1/posts?sort=-price&status=draft&cursor=${cursor}`,
        ]) {
          const response = await get(url)
          expect(response.status, url).toBe(400)
          expect(response.body.code, url).toBe('invalid_cursor')
        }
        const both = await get(`/v1/posts?sort=-price&page=2&cursor=${cursor}`)
        expect(both.status).toBe(400)
        expect(both.body.errors[0]).toMatchObject({ name: 'page' })
      })

      it('visits every row that existed throughout exactly once while others insert and delete', async () => {
        const category = categories[0]!
        const made: number[] = []
        for (let index = 0; index < 20; index++)
          made.push((await post('/v1/posts', { title: `walk ${index}`, price: index % 4, category_id: category })).id)
        const seen: number[] = []
        let cursor: string | null = null
        let round = 0
        do {
          const response = await get(
            `/v1/posts?filter[title][starts_with]=walk&sort=-price&per_page=3${cursor ? `&cursor=${cursor}` : ''}`,
          )
          seen.push(...ids(response.body.data))
          cursor = response.body.meta.next_cursor
          // Another client: one new row and one deleted row per page.
          await post('/v1/posts', { title: `walk extra ${round}`, price: round % 4, category_id: category })
          const victim = made.splice(made.length - 1 - (round % 3), 1)[0]
          if (victim !== undefined) await call({ method: 'DELETE', url: `/v1/posts/${victim}` })
          round++
        } while (cursor)
        for (const id of made)
          expect(
            seen.filter((seenId) => seenId === id),
            `post ${id}`,
          ).toHaveLength(1)
        expect(new Set(seen).size).toBe(seen.length)
      })
    })

    describe('include', () => {
      it('embeds nothing without include, and each whitelisted relation with it', async () => {
        const plain = await get('/v1/posts?per_page=100')
        expect(plain.body.data[0]).not.toHaveProperty('author')
        const included = await get('/v1/posts?include=author,category,comments&per_page=100')
        const original = (included.body.data as Post[]).filter((row) =>
          posts.some((candidate) => candidate.id === row.id),
        )
        expect(original).toHaveLength(posts.length)
        for (const row of original) {
          const source = posts.find((candidate) => candidate.id === row.id)!
          expect(row.author === null ? null : (row.author as { id: number }).id).toBe(source.author_id)
          expect((row.category as { id: number }).id).toBe(source.category_id)
          expect(Array.isArray(row.comments)).toBe(true)
        }
        const withComments = (included.body.data as Post[]).find((row) => row.id === posts[0]!.id)!
        expect((withComments.comments as { body: string }[]).map((comment) => comment.body)).toEqual([
          'first',
          'second',
        ])
        const single = await get(`/v1/posts/${posts[1]!.id}?include=category`)
        expect(single.body.data.category).toMatchObject({ id: posts[1]!.category_id })
      })

      it('embeds one level deeper with dot notation, also on nested routes', async () => {
        const product = await post('/v1/products', { title: 'Pen', price: 2 })
        const order = await post('/v1/orders', {})
        await post(`/v1/orders/${order.id}/items`, { quantity: 2, product_id: product.id })
        await post(`/v1/orders/${order.id}/items`, { quantity: 1 })
        const response = await get(`/v1/orders/${order.id}?include=items.product`)
        expect(
          response.body.data.items.map((item: { product: { title: string } | null }) => item.product?.title ?? null),
        ).toEqual(['Pen', null])
        const nested = await get(`/v1/orders/${order.id}/items?include=product`)
        expect(nested.body.data[0].product).toMatchObject({ id: product.id })
      })

      it('rejects paths that are not whitelisted, too many, or too deep, listing the allowed paths', async () => {
        for (const include of ['editor', 'author.posts', 'author,category,comments,author', 'items.product.category']) {
          const response = await get(`/v1/posts?include=${include}`)
          expect(response.status, include).toBe(400)
          expect(response.body.errors[0]).toMatchObject({
            name: 'include',
            detail: expect.stringContaining('allowed paths: author, category, comments'),
          })
        }
        expect((await get('/v1/categories?include=posts')).status).toBe(400)
      })

      it('issues a constant number of statements whatever the page size', async () => {
        const count = async (perPage: number) => {
          const before = storage.statements()
          const response = await get(`/v1/posts?include=author,category,comments&per_page=${perPage}&count=none`)
          expect(response.status).toBe(200)
          return storage.statements() - before
        }
        const small = await count(5)
        const large = await count(100)
        expect(small).toBe(large)
        // The page and one per included relation (no count: a short page would skip it, a full one not).
        expect(large).toBeLessThanOrEqual(4)
      })
    })

    it('combines filters, sort, pagination and include in one request', async () => {
      const expected = ordered(
        posts.filter((row) => row.price !== null && row.price >= 20),
        ['price', -1],
      )
      const response = await get('/v1/posts?filter[price][gte]=20&sort=-price&page=2&per_page=4&include=author')
      expect(ids(response.body.data)).toEqual(ids(expected.slice(4, 8)))
      expect(response.body.data[0]).toHaveProperty('author')
    })

    it('sends Cache-Control from the manifest and Vary: Accept on GET', async () => {
      const categoriesResponse = await get('/v1/categories')
      expect(categoriesResponse.headers['cache-control']).toBe('max-age=300')
      expect(categoriesResponse.headers.vary).toBe('Accept')
      const postsResponse = await get(`/v1/posts/${posts[0]!.id}`)
      expect(postsResponse.headers['cache-control']).toBe('no-cache')
    })

    it('refuses to delete an author that posts still reference', async () => {
      const referenced = posts.find((row) => row.author_id !== null)!
      const response = await call({ method: 'DELETE', url: `/v1/authors/${referenced.author_id}` })
      expect(response.status).toBe(409)
      expect(response.body.detail).toMatch(/posts/)
    })
  })
}
