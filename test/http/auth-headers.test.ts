import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildApiServer, type AccessRule } from '../../runtime/index.js'
import { api } from '../fixtures/auth-api/generated/server.js'
import { allTables } from '../fixtures/auth-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 10, the headers around authentication: how a client may spell the
 * bearer scheme, what a 401 tells it to send, and which answers caches must
 * keep per caller. The API is test/fixtures/auth-api with its replies made
 * public, so only their parent note's owner rule shapes a nested list.
 */
const SECRET = randomBytes(32).toString('hex')
const now = () => Math.floor(Date.now() / 1000)
const token = (sub: string) =>
  signJwt(
    { iss: 'https://auth.example.test/', aud: 'auth-api', sub, iat: now(), exp: now() + 300 },
    { alg: 'HS256', secret: SECRET },
  )
const PUBLIC: readonly AccessRule[] = ['public']

for (const dialect of DIALECTS) {
  describe(`${dialect}: authentication headers`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      const auth = api.auth!
      const replies = {
        owner: auth.resources['replies']!.owner,
        access: { list: PUBLIC, read: PUBLIC, create: PUBLIC, update: PUBLIC, delete: PUBLIC },
      }
      app = await buildApiServer(
        { ...api, auth: { ...auth, resources: { ...auth.resources, replies } } },
        { storage: storage.storage, docs: false, env: { AUTH_TEST_JWT_SECRET: SECRET } },
      )
    })
    afterAll(async () => {
      await app?.close()
      await storage?.dispose()
    })

    it('reads the bearer scheme name in any case (RFC 9110 §11.1)', async () => {
      const response = await app.inject({ url: '/v1/tags', headers: { authorization: `bearer ${token('alice')}` } })
      expect(response.statusCode, response.body).toBe(200)
    })

    it('names every header that can carry credentials in a 401', async () => {
      const response = await app.inject({ url: '/v1/tags' })
      expect(response.statusCode).toBe(401)
      expect(response.json().detail).toBe(
        'This operation needs credentials; send Authorization: Bearer <token> or X-API-Key: <key>.',
      )
    })

    it('keeps a public nested list private to the caller when its parent is owner-only', async () => {
      const alice = { authorization: `Bearer ${token('alice')}` }
      const note = await app.inject({ method: 'POST', url: '/v1/notes', headers: alice, payload: { text: 'n' } })
      expect(note.statusCode, note.body).toBe(201)
      const path = `/v1/notes/${note.json().data.id}/replies`
      const own = await app.inject({ url: path, headers: alice })
      expect(own.statusCode, own.body).toBe(200)
      expect(own.headers['cache-control']).toBe('private, no-cache')
      expect(own.headers.vary).toBe('Accept, Authorization, X-API-Key')
      const others = await app.inject({ url: path, headers: { authorization: `Bearer ${token('bob')}` } })
      expect(others.statusCode).toBe(404)
      const everyone = await app.inject({ url: '/v1/replies' })
      expect(everyone.headers['cache-control']).toBe('no-cache')
    })
  })
}
