/**
 * Aggregates (issue 17): `GET /v2/posts/aggregates` with `group_by`,
 * `aggregate[field]`, the list's filters, the owner rule, the parent of a
 * nested route, cursor pages of groups and the `groups_max` cap, on both
 * databases, on test/fixtures/aggregates-api.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildApiServer } from '../../runtime/index.js'
import { allTables } from '../fixtures/aggregates-api/generated/schema.js'
import { api } from '../fixtures/aggregates-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

const SECRET = randomBytes(32).toString('hex')
const now = () => Math.floor(Date.now() / 1000)
const as = (sub: string) => ({
  authorization: `Bearer ${signJwt(
    { iss: 'https://auth.example.test/', aud: 'aggregates-api', sub, iat: now(), exp: now() + 300 },
    { alg: 'HS256', secret: SECRET },
  )}`,
})

interface Groups {
  data: Record<string, unknown>[]
  meta: { per_page: number; next_cursor: string | null }
  links: Record<string, string | null>
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: aggregates`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    const authors: number[] = []

    const get = async (url: string, headers = {}): Promise<Groups> => {
      const response = await app.inject({ url, headers })
      expect(response.statusCode, response.body).toBe(200)
      return response.json<Groups>()
    }
    const problem = async (url: string, status = 400) => {
      const response = await app.inject(url)
      expect(response.statusCode, response.body).toBe(status)
      return response.json<{ code: string; errors: { name: string; detail: string }[] }>()
    }
    const create = async (url: string, payload: object, headers = {}) => {
      const response = await app.inject({ method: 'POST', url, payload, headers })
      expect(response.statusCode, response.body).toBe(201)
      return response.json<{ data: { id: number } }>().data.id
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildApiServer(api, {
        storage: storage.storage,
        docs: false,
        env: { AGGREGATES_TEST_JWT_SECRET: SECRET },
      })
      for (const name of ['ada', 'bob']) authors.push(await create('/v2/authors', { name }))
      const [ada, bob] = authors
      const posts = [
        { author_id: ada, status: 'draft', views: 10, rating: 1.5, title: 'b', published_on: null },
        { author_id: ada, status: 'draft', views: 20, rating: 2.5, title: 'a', published_on: null },
        { author_id: ada, status: 'published', views: 5, rating: null, title: 'c', published_on: '2026-01-02' },
        { author_id: bob, status: 'published', views: null, rating: 4, title: 'd', published_on: '2026-01-02' },
        { author_id: bob, status: 'archived', views: Number.MAX_SAFE_INTEGER, title: 'e', published_on: '2026-01-01' },
        { author_id: bob, status: 'archived', views: Number.MAX_SAFE_INTEGER, title: 'f', published_on: '2026-01-03' },
      ]
      for (const post of posts) await create('/v2/posts', post)
      for (const [kind, size] of [
        ['a', 1],
        ['a', 2],
        ['b', 4],
      ] as const)
        await create('/v2/notes', { kind, size }, as('alice'))
      await create('/v2/notes', { kind: 'a', size: 100 }, as('mallory'))
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    it('groups by one field, sorted by it, with count and the functions asked for', async () => {
      const page = await get(
        '/v2/posts/aggregates?group_by=status&aggregate[views]=sum,avg,min,max&aggregate[title]=min',
      )
      expect(page.data).toEqual([
        {
          status: 'archived',
          count: 2,
          // 2 × (2^53 - 1): past what a JSON number holds exactly, so a string of digits.
          views: { sum: '18014398509481982', avg: 9007199254740991, min: 9007199254740991, max: 9007199254740991 },
          title: { min: 'e' },
        },
        { status: 'draft', count: 2, views: { sum: '30', avg: 15, min: 10, max: 20 }, title: { min: 'a' } },
        { status: 'published', count: 2, views: { sum: '5', avg: 5, min: 5, max: 5 }, title: { min: 'c' } },
      ])
      expect(page.meta).toEqual({ per_page: 5, next_cursor: null })
      expect(page.links.next).toBeNull()
    })

    it('groups by two fields, nulls first, and without group_by counts every matching record as one group', async () => {
      const page = await get('/v2/posts/aggregates?group_by=published_on,status&aggregate[rating]=sum')
      expect(page.data.map((group) => [group.published_on, group.status, group.count])).toEqual([
        [null, 'draft', 2],
        ['2026-01-01', 'archived', 1],
        ['2026-01-02', 'published', 2],
        ['2026-01-03', 'archived', 1],
      ])
      expect(page.data[0]!.rating).toEqual({ sum: 4 })
      expect(page.data[1]!.rating).toEqual({ sum: null })
      expect((await get('/v2/posts/aggregates')).data).toEqual([{ count: 6 }])
      expect((await get('/v2/posts/aggregates?filter[views][gte]=9007199254740991&status=draft')).data).toEqual([
        { count: 0 },
      ])
    })

    it('selects the records the list would: exact and operator filters, and the parent of a nested route', async () => {
      const filtered = await get(
        '/v2/posts/aggregates?group_by=status&filter[status][in]=draft,published&filter[views][gte]=10',
      )
      expect(filtered.data).toEqual([{ status: 'draft', count: 2 }])
      const exact = await get('/v2/posts/aggregates?group_by=author_id&status=published')
      expect(exact.data).toEqual([
        { author_id: authors[0], count: 1 },
        { author_id: authors[1], count: 1 },
      ])
      const nested = await get(`/v2/authors/${authors[1]}/posts/aggregates?group_by=status&aggregate[views]=max`)
      expect(nested.data).toEqual([
        { status: 'archived', count: 2, views: { max: 9007199254740991 } },
        { status: 'published', count: 1, views: { max: null } },
      ])
      await problem('/v2/authors/999999/posts/aggregates', 404)
    })

    it('counts only the rows an owner rule lets the caller list, and requires the list access', async () => {
      const alice = await get('/v2/notes/aggregates?group_by=kind&aggregate[size]=sum', as('alice'))
      expect(alice.data).toEqual([
        { kind: 'a', count: 2, size: { sum: '3' } },
        { kind: 'b', count: 1, size: { sum: '4' } },
      ])
      const nobody = await get('/v2/notes/aggregates', as('nobody'))
      expect(nobody.data).toEqual([{ count: 0 }])
      expect((await app.inject('/v2/notes/aggregates')).statusCode).toBe(401)
    })

    it('sums integers exactly past 2^63, in one statement, on both databases', async () => {
      // An integer field holds at most 2^53 - 1: 1,025 of them pass 2^63, where SQLite's sum() overflows.
      const notes = allTables.find((table) => table.name === 'notes')!
      const big = Number.MAX_SAFE_INTEGER
      const sizes: Record<string, number[]> = {
        big: Array.from({ length: 1025 }, () => big),
        negative: Array.from({ length: 1030 }, (_, index) => -big + index),
        mixed: [big, big, -big, -1, 7],
      }
      await storage.storage.transaction(async (transaction) => {
        for (const [kind, values] of Object.entries(sizes)) {
          for (const size of values) await transaction.insert(notes, { kind, size, owner_sub: 'carol' })
        }
      })
      const exact = (values: number[]) => String(values.reduce((sum, value) => sum + BigInt(value), 0n))
      expect(exact(sizes.big!)).toBe('9232379236109515775')
      expect(BigInt(exact(sizes.negative!))).toBeLessThan(-(2n ** 63n))
      const before = storage.statements()
      const page = await get('/v2/notes/aggregates?group_by=kind&aggregate[size]=sum', as('carol'))
      expect(storage.statements() - before).toBe(1)
      expect(page.data).toEqual([
        { kind: 'big', count: 1025, size: { sum: exact(sizes.big!) } },
        { kind: 'mixed', count: 5, size: { sum: exact(sizes.mixed!) } },
        { kind: 'negative', count: 1030, size: { sum: exact(sizes.negative!) } },
      ])
      expect((await get('/v2/notes/aggregates?aggregate[size]=sum', as('carol'))).data).toEqual([
        { count: 2060, size: { sum: exact([...sizes.big!, ...sizes.negative!, ...sizes.mixed!]) } },
      ])
    })

    it('pages groups by cursor, at most groups_max per request, each page bounded by per_page', async () => {
      const first = await get('/v2/posts/aggregates?group_by=author_id,status&per_page=2')
      expect(first.data.map((group) => group.status)).toEqual(['draft', 'published'])
      expect(first.meta.next_cursor).toEqual(expect.any(String))
      const second = await get(first.links.next!)
      expect(second.data.map((group) => [group.author_id, group.status])).toEqual([
        [authors[1], 'archived'],
        [authors[1], 'published'],
      ])
      expect(second.meta.next_cursor).toBeNull()
      const capped = await problem('/v2/posts/aggregates?per_page=6')
      expect(capped.errors).toEqual([{ in: 'query', name: 'per_page', detail: 'must be <= 5' }])
      // A cursor is bound to its group_by and filters.
      const replayed = await problem(`/v2/posts/aggregates?group_by=status,author_id&cursor=${first.meta.next_cursor}`)
      expect(replayed.code).toBe('invalid_cursor')
    })

    it('runs one statement per request, whatever the groups and functions (the list page and its count are two)', async () => {
      const before = storage.statements()
      await get('/v2/posts/aggregates?group_by=author_id,status&aggregate[views]=sum,avg,min,max&aggregate[title]=max')
      expect(storage.statements() - before).toBe(1)
    })

    it('answers 400 naming the parameter and the allowed values for what is not whitelisted', async () => {
      const cases: [string, string, RegExp][] = [
        ['group_by=title', 'group_by', /cannot group by "title"; fields to group by: status, author_id, published_on/],
        ['group_by=status,status', 'group_by', /names status twice/],
        ['group_by=status&group_by=', 'group_by', /has an empty entry/],
        [
          'aggregate[status]=sum',
          'aggregate[status]',
          /"status" is not aggregatable; aggregatable: views \(sum, avg, min, max\), rating \(sum, avg\), title \(min, max\)/,
        ],
        ['aggregate[rating]=max', 'aggregate[rating]', /"max" is not available; functions of rating: sum, avg/],
        ['aggregate=sum', 'aggregate', /names its field in brackets/],
        ['aggregate[views][x]=sum', 'aggregate[views]', /takes a comma-separated list of functions/],
        [
          'page=2',
          'page',
          /is not a known query parameter; allowed: group_by, aggregate, filter, per_page, cursor, status/,
        ],
        ['sort=status', 'sort', /is not a known query parameter/],
        ['per_page=99999999999999999999999', 'per_page', /is far too large/],
        ['status=draft&status=published', 'status', /is given more than once/],
        ['filter[title][eq]=a', 'filter[title]', /is not filterable/],
      ]
      for (const [query, name, detail] of cases) {
        const body = await problem(`/v2/posts/aggregates?${query}`)
        expect(body.code, query).toBe('validation_failed')
        expect(body.errors.find((error) => error.name === name)?.detail, query).toMatch(detail)
      }
      // Repeated names join as lists do: aggregate[views]=sum&aggregate[views]=max is aggregate[views]=sum,max.
      const joined = await get('/v2/posts/aggregates?aggregate[views]=sum&aggregate[views]=max')
      expect(joined.data).toEqual([{ count: 6, views: { sum: '18014398509482017', max: 9007199254740991 } }])
    })

    it('serves an older version in its own names: v1 calls rating score and status state', async () => {
      const v1 = await get('/v1/posts/aggregates?group_by=state&aggregate[score]=sum&state=draft')
      expect(v1.data).toEqual([{ state: 'draft', count: 2, score: { sum: 4 } }])
      const renamed = await problem('/v1/posts/aggregates?aggregate[rating]=sum')
      expect(renamed.errors[0]!.detail).toMatch(
        /"rating" is not aggregatable; aggregatable: views \(sum, avg, min, max\), score/,
      )
    })

    it('leaves the item route and its 400 for a non-numeric id alone', async () => {
      expect((await app.inject('/v2/posts/aggregatez')).statusCode).toBe(400)
      expect((await app.inject({ method: 'POST', url: '/v2/posts/aggregates', payload: {} })).statusCode).toBe(405)
      expect((await app.inject('/v2/authors/aggregates')).statusCode).toBe(400)
    })
  })
}
