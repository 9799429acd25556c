import { randomBytes } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildApiServer } from '../../runtime/index.js'
import { api } from '../fixtures/soft-delete-api/generated/server.js'
import { allTables, commentsTable, postsTable, reviewsTable } from '../fixtures/soft-delete-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 17: soft delete (`soft_delete: true` on posts) and `on_delete:
 * set_null` (posts' author) over HTTP, on both databases, against
 * test/fixtures/soft-delete-api (v1, and v2 renaming posts' title). Tokens are signed here; `posts:admin` is the
 * scope the `deleted` access rule asks for.
 */
const SECRET = randomBytes(32).toString('hex')
const now = () => Math.floor(Date.now() / 1000)
const token = (scope: string) =>
  signJwt(
    { iss: 'https://auth.example.test/', aud: 'soft-delete-api', sub: 'tester', scope, iat: now(), exp: now() + 300 },
    { alg: 'HS256', secret: SECRET },
  )
const ADMIN = { authorization: `Bearer ${token('posts:admin')}` }
const READER = { authorization: `Bearer ${token('posts:read')}` }

interface Post {
  id: number
  slug: string
  author_id: number | null
  deleted_at: string | null
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: soft delete and set_null`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let slugs = 0

    const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers = {}, payload?: object) =>
      app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
      expect(response.statusCode, response.body).toBe(status)
      expect(response.json().code).toBe(code)
      return response.json() as { detail: string; errors?: { name?: string; pointer?: string }[] }
    }
    const createPost = async (fields: Partial<Post> = {}): Promise<Post> => {
      const response = await send('POST', '/v1/posts', {}, { title: 'A post', slug: `slug-${++slugs}`, ...fields })
      expect(response.statusCode, response.body).toBe(201)
      return response.json().data
    }
    const remove = async (url: string) => expect((await send('DELETE', url)).statusCode).toBe(204)
    const listIds = async (url: string, headers = {}) => {
      const response = await send('GET', url, headers)
      expect(response.statusCode, response.body).toBe(200)
      return (response.json().data as { id: number }[]).map((row) => row.id)
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildApiServer(api, {
        storage: storage.storage,
        docs: false,
        env: { SOFT_DELETE_TEST_JWT_SECRET: SECRET },
      })
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    it('DELETE stamps deleted_at: the post leaves reads, lists, nested lists and includes of both directions', async () => {
      const author = (await send('POST', '/v1/authors', {}, { name: 'Ann' })).json().data
      const post = await createPost({ author_id: author.id })
      const kept = await createPost({ author_id: author.id })
      expect(post.deleted_at).toBeNull()
      expect((await send('POST', `/v1/posts/${post.id}/comments`, {}, { text: 'hi' })).statusCode).toBe(201)
      const link = (await send('POST', '/v1/reviews', {}, { stars: 3, post_id: kept.id })).json().data

      await remove(`/v1/posts/${post.id}`)
      expectProblem(await send('GET', `/v1/posts/${post.id}`), 404, 'not_found')
      expectProblem(await send('DELETE', `/v1/posts/${post.id}`), 404, 'not_found')
      expectProblem(await send('PATCH', `/v1/posts/${post.id}`, {}, { title: 'x' }), 404, 'not_found')
      expect(await listIds('/v1/posts?per_page=100')).not.toContain(post.id)
      expectProblem(await send('GET', `/v1/posts/${post.id}/comments`), 404, 'not_found')
      expectProblem(await send('POST', `/v1/posts/${post.id}/comments`, {}, { text: 'x' }), 404, 'not_found')
      // The comment is still stored (nothing cascades until the post is purged), reachable at its own path.
      expect((await listIds('/v1/comments?per_page=100')).length).toBeGreaterThan(0)
      const embedded = (await send('GET', `/v1/authors/${author.id}?include=posts`)).json().data.posts
      expect(embedded.map((row: Post) => row.id)).toEqual([kept.id])
      // A record pointing at a deleted post may not be created, as if the post were gone.
      const refused = expectProblem(
        await send('POST', '/v1/reviews', {}, { stars: 1, post_id: post.id }),
        400,
        'validation_failed',
      )
      expect(refused.errors?.[0]?.pointer).toBe('/post_id')
      expect((await send('GET', `/v1/reviews/${link.id}?include=post`)).json().data.post.id).toBe(kept.id)
    })

    it('embeds null for a belongs-to whose target is soft-deleted', async () => {
      const post = await createPost()
      await remove(`/v1/posts/${post.id}`)
      // Written straight to the storage, as no request may (the post reads as gone): the include hides it too.
      const review = await storage.storage.insert(reviewsTable, { stars: 5, post_id: post.id })
      const read = (await send('GET', `/v1/reviews/${review.id}?include=post`)).json().data
      expect(read).toMatchObject({ post_id: post.id, post: null })
    })

    it('refuses to soft-delete a post a live review still points at (restrict), 409 still_referenced', async () => {
      const post = await createPost()
      const review = (await send('POST', '/v1/reviews', {}, { stars: 4, post_id: post.id })).json().data
      const problem = expectProblem(await send('DELETE', `/v1/posts/${post.id}`), 409, 'still_referenced')
      expect(problem.detail).toContain('reviews')
      await remove(`/v1/reviews/${review.id}`)
      await remove(`/v1/posts/${post.id}`)
    })

    it('?deleted= needs the deleted rule: 401 without credentials, 403 naming the parameter, 400 for a bad value', async () => {
      expectProblem(await send('GET', '/v1/posts?deleted=only'), 401, 'unauthenticated')
      const forbidden = expectProblem(await send('GET', '/v1/posts?deleted=include', READER), 403, 'forbidden')
      expect(forbidden.detail).toContain('?deleted=include')
      expect(forbidden.detail).toContain('posts:admin')
      expect(forbidden.errors).toEqual([{ in: 'query', name: 'deleted', detail: 'not granted to this caller' }])
      const bad = expectProblem(await send('GET', '/v1/posts?deleted=yes', ADMIN), 400, 'validation_failed')
      expect(bad.errors).toEqual([{ in: 'query', name: 'deleted', detail: 'must be one of include, only' }])
      expectProblem(await send('GET', '/v1/authors?deleted=only', ADMIN), 400, 'validation_failed')
    })

    it('?deleted=only and include list and read deleted posts for the admin', async () => {
      const live = await createPost()
      const gone = await createPost()
      await remove(`/v1/posts/${gone.id}`)
      const only = await listIds('/v1/posts?deleted=only&per_page=100', ADMIN)
      expect(only).toContain(gone.id)
      expect(only).not.toContain(live.id)
      // Public lists are cacheable by anyone; one showing deleted posts is the admin's alone.
      expect((await send('GET', '/v1/posts')).headers['cache-control']).toBe('no-cache')
      const adminPage = await send('GET', '/v1/posts?deleted=only', ADMIN)
      expect(adminPage.headers['cache-control']).toBe('private, no-cache')
      expect(adminPage.headers.vary).toBe('Accept, Authorization')
      const all = await listIds('/v1/posts?deleted=include&per_page=100', ADMIN)
      expect(all).toEqual(expect.arrayContaining([gone.id, live.id]))
      const read = await send('GET', `/v1/posts/${gone.id}?deleted=include`, ADMIN)
      expect(read.statusCode, read.body).toBe(200)
      expect(read.json().data.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT/)
      expectProblem(await send('GET', `/v1/posts/${live.id}?deleted=only`, ADMIN), 404, 'not_found')
    })

    it('restores through POST /posts/{id}/restorations: 200 with the record; 409 when live; 404 when missing', async () => {
      const post = await createPost()
      await remove(`/v1/posts/${post.id}`)
      expectProblem(await send('POST', `/v1/posts/${post.id}/restorations`), 401, 'unauthenticated')
      expectProblem(await send('POST', `/v1/posts/${post.id}/restorations`, READER), 403, 'forbidden')
      const restored = await send('POST', `/v1/posts/${post.id}/restorations`, ADMIN)
      expect(restored.statusCode, restored.body).toBe(200)
      expect(restored.json().data).toMatchObject({ id: post.id, slug: post.slug, deleted_at: null })
      expect(restored.headers.etag).toBeDefined()
      expect((await send('GET', `/v1/posts/${post.id}`)).statusCode).toBe(200)
      expectProblem(await send('POST', `/v1/posts/${post.id}/restorations`, ADMIN), 409, 'not_deleted')
      expectProblem(await send('POST', '/v1/posts/999999/restorations', ADMIN), 404, 'not_found')
    })

    it('unique holds among live posts: a deleted slug is free again, and restoring it then is 409 naming slug', async () => {
      const post = await createPost()
      await remove(`/v1/posts/${post.id}`)
      const taker = await createPost({ slug: post.slug })
      expectProblem(await send('POST', '/v1/posts', {}, { title: 'x', slug: post.slug }), 409, 'unique_violation')
      const clash = expectProblem(
        await send('POST', `/v1/posts/${post.id}/restorations`, ADMIN),
        409,
        'unique_violation',
      )
      expect(clash.errors).toEqual([{ in: 'body', pointer: '/slug', detail: 'must be unique' }])
      await remove(`/v1/posts/${taker.id}`)
      expect((await send('POST', `/v1/posts/${post.id}/restorations`, ADMIN)).statusCode).toBe(200)
    })

    it('races a restore against a create reusing the slug: exactly one wins, the other is 409', async () => {
      for (let round = 0; round < 5; round++) {
        const post = await createPost()
        await remove(`/v1/posts/${post.id}`)
        const [restore, create] = await Promise.all([
          send('POST', `/v1/posts/${post.id}/restorations`, ADMIN),
          send('POST', '/v1/posts', {}, { title: 'rival', slug: post.slug }),
        ])
        const statuses = [restore.statusCode, create.statusCode].sort()
        expect(statuses).toEqual(restore.statusCode === 200 ? [200, 409] : [201, 409])
        const loser = restore.statusCode === 409 ? restore : create
        expect(loser.json().errors).toEqual([{ in: 'body', pointer: '/slug', detail: 'must be unique' }])
        // Leave the slug free of the winner, so later rounds start clean.
        await remove(restore.statusCode === 200 ? `/v1/posts/${post.id}` : `/v1/posts/${create.json().data.id}`)
      }
    })

    it('races a soft delete against a restore: the end state is one of the two orders', async () => {
      for (let round = 0; round < 5; round++) {
        const post = await createPost()
        await remove(`/v1/posts/${post.id}`)
        const [restore, again] = await Promise.all([
          send('POST', `/v1/posts/${post.id}/restorations`, ADMIN),
          send('DELETE', `/v1/posts/${post.id}`),
        ])
        expect(restore.statusCode).toBe(200)
        // The delete ran first (404: already deleted) and the post is live, or after the restore (204) and it is not.
        expect([204, 404]).toContain(again.statusCode)
        const live = (await send('GET', `/v1/posts/${post.id}`)).statusCode
        expect(live).toBe(again.statusCode === 204 ? 404 : 200)
      }
    })

    it('serves soft delete alike in v1 and v2 (which renames title to headline) over the same rows', async () => {
      const created = await send('POST', '/v2/posts', {}, { headline: 'Both', slug: `slug-${++slugs}` })
      expect(created.statusCode, created.body).toBe(201)
      const id = created.json().data.id
      await remove(`/v1/posts/${id}`)
      expectProblem(await send('GET', `/v2/posts/${id}`), 404, 'not_found')
      const seen = await send('GET', `/v2/posts/${id}?deleted=only`, ADMIN)
      expect(seen.json().data).toMatchObject({ id, headline: 'Both' })
      expect(seen.json().data.deleted_at).not.toBeNull()
      const restored = await send('POST', `/v1/posts/${id}/restorations`, ADMIN)
      expect(restored.json().data).toMatchObject({ id, title: 'Both', deleted_at: null })
      expect((await send('GET', `/v2/posts/${id}`)).json().data.headline).toBe('Both')
    })

    it('on_delete: set_null keeps the posts of a deleted author, author_id null', async () => {
      const author = (await send('POST', '/v1/authors', {}, { name: 'Bo' })).json().data
      const post = await createPost({ author_id: author.id })
      // The post stays, so what restricts deleting it does not restrict deleting its author.
      expect((await send('POST', '/v1/reviews', {}, { stars: 3, post_id: post.id })).statusCode).toBe(201)
      await remove(`/v1/authors/${author.id}`)
      const read = (await send('GET', `/v1/posts/${post.id}?include=author`)).json().data
      expect(read).toMatchObject({ id: post.id, author_id: null, author: null })
    })

    it('purges posts deleted before the cut-off in batches, cascading comments, keeping restricted ones', async () => {
      const purged = [await createPost(), await createPost(), await createPost()]
      const comment = (await send('POST', `/v1/posts/${purged[0]!.id}/comments`, {}, { text: 'bye' })).json().data
      const held = await createPost()
      for (const post of [...purged, held]) await remove(`/v1/posts/${post.id}`)
      // A review written straight to the storage, as none may be through the API, holds its deleted post.
      await storage.storage.insert(reviewsTable, { stars: 2, post_id: held.id })
      const deletedPosts = async () =>
        (await storage.storage.list(postsTable, { rowFilter: {}, limit: 1000, deleted: 'only' })).rows.map(
          (row) => row.id,
        )
      const before = await deletedPosts()
      expect(await storage.storage.purge(postsTable, new Date(Date.now() - 3_600_000).toISOString(), 2)).toEqual({
        purged: 0,
        kept: 0,
      })
      const result = await storage.storage.purge(postsTable, new Date(Date.now() + 1000).toISOString(), 2)
      const after = await deletedPosts()
      expect(result.purged).toBe(before.length - after.length)
      expect(result.kept).toBe(after.length)
      expect(after).toContain(held.id)
      for (const post of purged) expect(after).not.toContain(post.id)
      expect(await storage.storage.find(commentsTable, comment.id)).toBeUndefined()
      expectProblem(await send('POST', `/v1/posts/${purged[1]!.id}/restorations`, ADMIN), 404, 'not_found')
    })
  })
}
