import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/versioned-api/generated/server.js'
import { allTables } from '../fixtures/versioned-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 9, deprecation in the interface: every response of the deprecated v1
 * of test/fixtures/versioned-api (deprecated 2027-01-15, sunset 2027-07-15,
 * default guide) carries the RFC 9745/8594/8288 headers and `meta`, errors
 * included; the current v2 carries none of it.
 */
const DEPRECATION = '@1799971200'
const SUNSET = 'Thu, 15 Jul 2027 00:00:00 GMT'
const GUIDE = '</docs/migrate-v1-to-v2>; rel="deprecation"; type="text/html"'
const META = { deprecated: true, sunset: '2027-07-15' }

for (const dialect of DIALECTS) {
  describe(`${dialect}: a deprecated version`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let post: number

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildServer({ storage: storage.storage, docs: false })
      post = (await storage.storage.insert(allTables[0]!, { title: 'First' })).id as number
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    const call = async (options: InjectOptions) => {
      const response = await app.inject(options)
      const type = String(response.headers['content-type'] ?? '')
      return {
        status: response.statusCode,
        headers: response.headers,
        body: response.body && type.includes('json') ? JSON.parse(response.body) : response.body,
      }
    }
    const expectAnnounced = (response: Awaited<ReturnType<typeof call>>, status: number, successor: string): void => {
      expect(response.status).toBe(status)
      expect(response.headers.deprecation).toBe(DEPRECATION)
      expect(response.headers.sunset).toBe(SUNSET)
      expect(response.headers.link).toBe(`${GUIDE}, <${successor}>; rel="successor-version"`)
    }

    it('announces it on a list, in the headers and in meta next to the page', async () => {
      const response = await call({ method: 'GET', url: '/v1/posts?per_page=5' })
      expectAnnounced(response, 200, '/v2/posts')
      expect(response.body.meta).toEqual({
        page: 1,
        per_page: 5,
        count: 'exact',
        total: 1,
        total_pages: 1,
        next_cursor: null,
        ...META,
      })
      expect(Object.keys(response.body)).toEqual(['data', 'meta', 'links'])
    })

    it('announces it on a record, a created record and a nested collection', async () => {
      const item = await call({ method: 'GET', url: `/v1/posts/${post}` })
      expectAnnounced(item, 200, `/v2/posts/${post}`)
      expect(item.body).toEqual({ data: expect.objectContaining({ id: post, title: 'First' }), meta: META })

      const created = await call({ method: 'POST', url: `/v1/posts/${post}/comments`, payload: { body: 'Hi' } })
      expectAnnounced(created, 201, `/v2/posts/${post}/comments`)
      expect(created.headers.location).toBe(`/v1/posts/${post}/comments/${created.body.data.id}`)
      expect(created.body.meta).toEqual(META)

      const nested = await call({ method: 'GET', url: `/v1/posts/${post}/comments?include=nothing` })
      expectAnnounced(nested, 400, `/v2/posts/${post}/comments`)
    })

    it('announces it on problems: 400, 404, 405, 415 and a path no route serves, with meta as an extension member', async () => {
      const invalid = await call({ method: 'POST', url: '/v1/posts', payload: { title: 7 } })
      expectAnnounced(invalid, 400, '/v2/posts')
      expect(invalid.headers['content-type']).toContain('application/problem+json')
      expect(invalid.body).toMatchObject({ code: 'validation_failed', meta: META })

      const missing = await call({ method: 'GET', url: '/v1/posts/999999' })
      expectAnnounced(missing, 404, '/v2/posts/999999')
      expect(missing.body).toMatchObject({ code: 'not_found', status: 404, meta: META })

      const notAllowed = await call({ method: 'PUT', url: '/v1/posts' })
      expectAnnounced(notAllowed, 405, '/v2/posts')
      expect(notAllowed.headers.allow).toBeDefined()
      expect(notAllowed.body).toMatchObject({ code: 'method_not_allowed', meta: META })

      const unsupported = await call({
        method: 'POST',
        url: '/v1/posts',
        payload: 'title=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expectAnnounced(unsupported, 415, '/v2/posts')
      expect(unsupported.body).toMatchObject({ code: 'unsupported_media_type', meta: META })

      const root = await call({ method: 'GET', url: '/v1' })
      expectAnnounced(root, 404, '/v2')

      const unknown = await call({ method: 'GET', url: '/v1/nothing-here/1?x=1' })
      expectAnnounced(unknown, 404, '/v2/nothing-here/1')
      expect(unknown.body).toMatchObject({ code: 'not_found', meta: META })
    })

    it('announces it on answers without a body: OPTIONS and DELETE', async () => {
      const options = await call({ method: 'OPTIONS', url: `/v1/posts/${post}` })
      expectAnnounced(options, 204, `/v2/posts/${post}`)
      expect(options.body).toBe('')
      const created = await call({ method: 'POST', url: '/v1/posts', payload: { title: 'Gone soon' } })
      const deleted = await call({ method: 'DELETE', url: `/v1/posts/${created.body.data.id}` })
      expectAnnounced(deleted, 204, `/v2/posts/${created.body.data.id}`)
    })

    it('keeps a link target within the URI syntax, whatever the path holds', async () => {
      const response = await call({ method: 'GET', url: '/v1/a>b"c' })
      expectAnnounced(response, 404, '/v2/a%3Eb%22c')
    })

    it('leaves the current version untouched: no header, no meta', async () => {
      for (const options of [
        { method: 'GET', url: '/v2/posts' },
        { method: 'GET', url: `/v2/posts/${post}` },
        { method: 'POST', url: '/v2/posts', payload: { title: 'New' } },
        { method: 'GET', url: '/v2/posts/999999' },
        { method: 'PUT', url: '/v2/posts' },
        { method: 'OPTIONS', url: '/v2/posts' },
      ] as const) {
        const response = await call(options)
        expect(response.headers.deprecation, `${options.method} ${options.url}`).toBeUndefined()
        expect(response.headers.sunset).toBeUndefined()
        expect(response.headers.link).toBeUndefined()
        if (typeof response.body === 'object') expect(response.body.meta?.deprecated).toBeUndefined()
      }
      expect((await call({ method: 'GET', url: `/v2/posts/${post}` })).body).toEqual({
        data: expect.objectContaining({ id: post }),
      })
    })
  })
}
