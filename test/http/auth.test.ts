import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodePart, signJwt } from '../../generator/cli/sign-jwt.js'
import { buildApiServer, type AuthScheme } from '../../runtime/index.js'
import { api } from '../fixtures/auth-api/generated/server.js'
import { allTables } from '../fixtures/auth-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 10: authentication and access rules over HTTP, on both databases,
 * with tokens signed here: HS256 from a secret, RS256 from keys this test
 * serves as a JWKS on 127.0.0.1. The API is test/fixtures/auth-api.
 */
const SECRET = randomBytes(32).toString('hex')
const API_KEY = 'machine-key-1'
const USER = { iss: 'https://auth.example.test/', aud: 'auth-api' }
const PARTNER = { iss: 'https://partner.example.test/', aud: 'auth-api' }
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
const now = () => Math.floor(Date.now() / 1000)

const userToken = (sub: string, scope = '', claims: Record<string, unknown> = {}) =>
  signJwt({ ...USER, sub, scope, iat: now(), exp: now() + 300, ...claims }, { alg: 'HS256', secret: SECRET })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const as = (sub: string, scope = '') => bearer(userToken(sub, scope))

let jwks: Server
let jwksUrl: string
beforeAll(async () => {
  const key = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }
  jwks = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ keys: [key] }))
  })
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve))
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`
})
afterAll(() => new Promise<void>((resolve) => jwks.close(() => resolve())))

for (const dialect of DIALECTS) {
  describe(`${dialect}: authentication and access rules`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, headers = {}, payload?: object) =>
      app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    const create = async (url: string, headers: object, payload: object) => {
      const response = await send('POST', url, headers, payload)
      expect(response.statusCode, response.body).toBe(201)
      return response.json().data as { id: number; owner_sub?: string }
    }
    const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
      expect(response.statusCode, response.body).toBe(status)
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(response.json().code).toBe(code)
    }

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      const schemes = api.auth!.schemes.map((scheme): AuthScheme =>
        scheme.type === 'jwt' && scheme.jwksUrl !== null ? { ...scheme, jwksUrl } : scheme,
      )
      const sha256 = createHash('sha256').update(API_KEY).digest('hex')
      app = await buildApiServer(
        { ...api, auth: { ...api.auth!, schemes } },
        {
          storage: storage.storage,
          docs: false,
          env: {
            AUTH_TEST_JWT_SECRET: SECRET,
            AUTH_TEST_API_KEYS: JSON.stringify([{ id: 'ci', sha256, scopes: ['tags:write'] }]),
          },
        },
      )
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    describe('credentials', () => {
      it('serves public operations without credentials, as cacheable as ever', async () => {
        const response = await send('GET', '/v1/posts')
        expect(response.statusCode).toBe(200)
        expect(response.headers['cache-control']).toBe('no-cache')
        expect(response.headers.vary).toBe('Accept')
      })

      it('answers 401 with a challenge per scheme when a non-public operation has no credentials', async () => {
        const response = await send('POST', '/v1/posts', {}, { title: 'x' })
        expectProblem(response, 401, 'unauthenticated')
        expect(response.headers['www-authenticate']).toBe('Bearer realm="api", ApiKey realm="api", header="X-API-Key"')
      })

      const invalidTokens: [string, () => string][] = [
        ['expired beyond the clock tolerance', () => userToken('alice', '', { exp: now() - 60 })],
        ['from another issuer', () => userToken('alice', '', { iss: 'https://evil.example.test/' })],
        ['for another audience', () => userToken('alice', '', { aud: 'other-api' })],
        ['without an issuer', () => userToken('alice', '', { iss: undefined })],
        ['without an expiry (valid forever)', () => userToken('alice', '', { exp: undefined })],
        [
          'signed with another secret',
          () => signJwt({ ...USER, sub: 'alice', exp: now() + 60 }, { alg: 'HS256', secret: 'x'.repeat(64) }),
        ],
        [
          'unsigned (alg none)',
          () => `${encodePart({ alg: 'none', typ: 'JWT' })}.${encodePart({ ...USER, sub: 'alice', exp: now() + 60 })}.`,
        ],
        [
          'tampered with after signing',
          () => {
            const [header, , signature] = userToken('alice').split('.')
            return `${header}.${encodePart({ ...USER, sub: 'mallory', exp: now() + 60 })}.${signature}`
          },
        ],
        [
          'RS256 signed by a key the JWKS lacks',
          () =>
            signJwt(
              { ...PARTNER, sub: 'p', exp: now() + 60 },
              { alg: 'RS256', privateKey: other.privateKey, kid: 'k1' },
            ),
        ],
        [
          'HS256 under the RS256 scheme issuer',
          () => signJwt({ ...PARTNER, sub: 'p', exp: now() + 60 }, { alg: 'HS256', secret: SECRET }),
        ],
        ['not a token at all', () => 'garbage'],
        // Issue 18, item 16: claims fast-jwt leaves unchecked.
        ['with a numeric sub', () => userToken('alice', '', { sub: 123 })],
        ['with an empty sub', () => userToken('', '')],
        ['that never expires in practice (exp 1e308)', () => userToken('alice', '', { exp: 1e308 })],
        [
          'living longer than a day (exp - iat)',
          () => userToken('alice', '', { iat: now() - 60, exp: now() + 86_400 }),
        ],
        ['issued a day in the future', () => userToken('alice', '', { iat: now() + 86_400, exp: now() + 86_460 })],
      ]
      it.each(invalidTokens)(
        'answers 401 invalid_token to a token %s, even on a public operation',
        async (_name, token) => {
          const response = await send('GET', '/v1/posts', bearer(token()))
          expectProblem(response, 401, 'invalid_credentials')
          expect(response.headers['www-authenticate']).toMatch(
            /^Bearer realm="api", error="invalid_token", error_description="[^"]+"/,
          )
        },
      )

      it('answers 401 to an Authorization header that is not a bearer token', async () => {
        expectProblem(
          await send('GET', '/v1/posts', { authorization: 'Basic YWxpY2U6c2VjcmV0' }),
          401,
          'invalid_credentials',
        )
      })

      it('reads the bearer scheme name case-insensitively', async () => {
        const response = await send('GET', '/v1/notes', { authorization: `bearer ${userToken('alice')}` })
        expect(response.statusCode, response.body).toBe(200)
      })

      it("refuses a token living past its scheme's max_ttl_s (partner: an hour), and takes one within it", async () => {
        const partnerToken = (lifetime: number) =>
          signJwt({ ...PARTNER, sub: 'p', iat: now(), exp: now() + lifetime }, { alg: 'RS256', privateKey, kid: 'k1' })
        expectProblem(await send('GET', '/v1/posts', bearer(partnerToken(7_200))), 401, 'invalid_credentials')
        expect((await send('GET', '/v1/posts', bearer(partnerToken(1_800)))).statusCode).toBe(200)
      })

      it('accepts a token within the clock tolerance', async () => {
        const response = await send('GET', '/v1/posts', bearer(userToken('alice', '', { exp: now() - 2 })))
        expect(response.statusCode).toBe(200)
      })

      it("never takes another scheme's caller with the same sub for the owner", async () => {
        const note = await create('/v1/notes', bearer(userToken('carol')), { text: "carol's" })
        const impostor = signJwt({ ...PARTNER, sub: 'carol', exp: now() + 60 }, { alg: 'RS256', privateKey, kid: 'k1' })
        const listed = await send('GET', '/v1/notes', bearer(impostor))
        expect(listed.statusCode).toBe(403)
        expect(listed.body).not.toContain("carol's")
        expectProblem(await send('DELETE', `/v1/notes/${note.id}`, bearer(impostor)), 403, 'forbidden')
        expect((await send('DELETE', `/v1/notes/${note.id}`, bearer(userToken('carol')))).statusCode).toBe(204)
      })

      it('verifies RS256 tokens with the keys of the JWKS, reading scopes from the configured claim', async () => {
        const token = signJwt(
          { ...PARTNER, sub: 'partner-1', permissions: ['posts:write'], exp: now() + 60 },
          { alg: 'RS256', privateKey, kid: 'k1' },
        )
        const post = await create('/v1/posts', bearer(token), { title: 'from a partner' })
        // Verified and allowed by its scope, but a partner's `sub` owns nothing: owner is the user scheme's.
        expect(post.owner_sub).toBeNull()
      })
    })

    describe('scopes', () => {
      it('answers 403 insufficient_scope naming the scopes when the token lacks them', async () => {
        const response = await send('POST', '/v1/posts', as('alice', 'posts:read'), { title: 'x' })
        expectProblem(response, 403, 'forbidden')
        expect(response.headers['www-authenticate']).toContain('error="insufficient_scope", scope="posts:write"')
      })

      it('creates with the scope, stamping the owner from the claim; the owner field is never writable', async () => {
        const post = await create('/v1/posts', as('alice', 'posts:write other'), { title: 'mine' })
        expect(post.owner_sub).toBe('alice')
        const forged = await send('POST', '/v1/posts', as('alice', 'posts:write'), { title: 'x', owner_sub: 'bob' })
        expect(forged.statusCode).toBe(400)
        const patched = await send('PATCH', `/v1/posts/${post.id}`, as('alice'), { owner_sub: 'bob' })
        expect(patched.statusCode).toBe(400)
      })
    })

    describe('owner', () => {
      let aliceNote: number
      let bobNote: number
      let alicePost: number
      beforeAll(async () => {
        aliceNote = (await create('/v1/notes', as('alice'), { text: 'alice' })).id
        bobNote = (await create('/v1/notes', as('bob'), { text: 'bob' })).id
        alicePost = (await create('/v1/posts', as('alice', 'posts:write'), { title: 'alice', note_id: aliceNote })).id
      })

      it('refuses a reference to a row the caller may not read as if it did not exist', async () => {
        const writer = as('alice', 'posts:write')
        const hidden = await send('POST', '/v1/posts', writer, { title: 'x', note_id: bobNote })
        const missing = await send('POST', '/v1/posts', writer, { title: 'x', note_id: 999_999 })
        expectProblem(hidden, 400, 'validation_failed')
        expect(hidden.json().detail).toBe(missing.json().detail)
        expect(hidden.json().errors).toEqual(missing.json().errors)
        const moved = await send('PATCH', `/v1/posts/${alicePost}`, writer, { note_id: bobNote })
        expectProblem(moved, 400, 'validation_failed')
        const own = await send('PATCH', `/v1/posts/${alicePost}`, writer, { note_id: aliceNote })
        expect(own.statusCode).toBe(200)
      })

      it('lists only the caller’s own rows, privately', async () => {
        const response = await send('GET', '/v1/notes', as('alice'))
        expect(response.json().data.map((note: { id: number }) => note.id)).toEqual([aliceNote])
        expect(response.headers['cache-control']).toBe('private, no-cache')
        expect(response.headers.vary).toBe('Accept, Authorization, X-API-Key')
        const admin = await send('GET', '/v1/notes', as('root', 'notes:admin'))
        expect(admin.json().data.map((note: { id: number }) => note.id)).toEqual([aliceNote, bobNote])
      })

      it('answers 404 to reading, changing or deleting a row the caller may not read', async () => {
        expectProblem(await send('GET', `/v1/notes/${bobNote}`, as('alice')), 404, 'not_found')
        expectProblem(await send('PATCH', `/v1/notes/${bobNote}`, as('alice'), { text: 'x' }), 404, 'not_found')
        expectProblem(await send('PUT', `/v1/notes/${bobNote}`, as('alice'), { text: 'x' }), 404, 'not_found')
        expectProblem(await send('DELETE', `/v1/notes/${bobNote}`, as('alice')), 404, 'not_found')
        expect((await send('GET', `/v1/notes/${bobNote}`, as('bob'))).json().data.text).toBe('bob')
      })

      it('answers 403 to changing or deleting a readable row of someone else, and changes nothing', async () => {
        const taken = await send('PATCH', `/v1/posts/${alicePost}`, as('bob'), { title: 'taken' })
        expectProblem(taken, 403, 'forbidden')
        expect(taken.json().detail).toBe(
          `post ${alicePost} is not yours; only its owner, or a caller with scope posts:admin, may change it.`,
        )
        expectProblem(await send('DELETE', `/v1/posts/${alicePost}`, as('bob')), 403, 'forbidden')
        expect((await send('GET', `/v1/posts/${alicePost}`)).json().data.title).toBe('alice')
      })

      it('lets the owner, or the admin scope, change and delete', async () => {
        const patched = await send('PATCH', `/v1/posts/${alicePost}`, as('alice'), { title: 'edited' })
        expect(patched.statusCode, patched.body).toBe(200)
        expect(patched.json().data.owner_sub).toBe('alice')
        const admin = await send('PATCH', `/v1/posts/${alicePost}`, as('root', 'posts:admin'), { title: 'moderated' })
        expect(admin.json().data).toMatchObject({ title: 'moderated', owner_sub: 'alice' })
        const doomed = (await create('/v1/notes', as('alice'), { text: 'doomed' })).id
        expect((await send('DELETE', `/v1/notes/${doomed}`, as('alice'))).statusCode).toBe(204)
      })

      it('applies the target’s read rule on nested routes: a parent the caller may not read is 404', async () => {
        const reply = await create(`/v1/notes/${aliceNote}/replies`, as('alice'), { text: 'mine' })
        expectProblem(await send('GET', `/v1/notes/${aliceNote}/replies`, as('bob')), 404, 'not_found')
        expectProblem(await send('POST', `/v1/notes/${aliceNote}/replies`, as('bob'), { text: 'x' }), 404, 'not_found')
        expectProblem(await send('GET', `/v1/notes/${aliceNote}/replies/${reply.id}`, as('bob')), 404, 'not_found')
        const listed = await send('GET', `/v1/notes/${aliceNote}/replies`, as('alice'))
        expect(listed.json().data.map((row: { id: number }) => row.id)).toEqual([reply.id])
      })

      it('never embeds a row the caller could not read', async () => {
        const rootReply = await create(`/v1/notes/${aliceNote}/replies`, as('root', 'notes:admin'), { text: 'admin' })
        const ownReplies = (await send('GET', `/v1/notes/${aliceNote}?include=replies`, as('alice'))).json().data
          .replies
        expect(ownReplies.map((row: { owner_sub: string }) => row.owner_sub)).not.toContain('root')
        expect(ownReplies.map((row: { id: number }) => row.id)).not.toContain(rootReply.id)
        const asBob = await send('GET', `/v1/posts/${alicePost}?include=note`, as('bob'))
        expect(asBob.json().data.note).toBeNull()
        expect(asBob.headers['cache-control']).toMatch(/^private/)
        const anonymous = await send('GET', `/v1/posts?include=note`)
        expect(anonymous.json().data.every((post: { note: unknown }) => post.note === null)).toBe(true)
        const asAlice = await send('GET', `/v1/posts/${alicePost}?include=note`, as('alice'))
        expect(asAlice.json().data.note.id).toBe(aliceNote)
      })
    })

    describe('API keys', () => {
      it('accepts a known key with its scopes', async () => {
        const tag = await create('/v1/tags', { 'x-api-key': API_KEY }, { name: 'ci' })
        expect(tag.id).toBeGreaterThan(0)
        // The answer depends on the key: a cache must key on its header, not only on Authorization.
        const read = await send('GET', `/v1/tags/${tag.id}`, { 'x-api-key': API_KEY })
        expect([read.headers['cache-control'], read.headers.vary]).toEqual([
          'private, no-cache',
          'Accept, Authorization, X-API-Key',
        ])
      })

      it('answers 401 to an unknown key, with the API-key challenge', async () => {
        const response = await send('GET', '/v1/posts', { 'x-api-key': 'not-a-key' })
        expectProblem(response, 401, 'invalid_credentials')
        expect(response.headers['www-authenticate']).toContain('ApiKey realm="api", header="X-API-Key"')
      })

      it('answers 401 to a valid key sent with a bearer token: each credential must verify, so one is sent', async () => {
        const response = await send('GET', '/v1/posts', { 'x-api-key': API_KEY, authorization: 'Bearer garbage' })
        expectProblem(response, 401, 'invalid_credentials')
        expect(response.json().detail).toBe('Send one credential, not x-api-key and authorization together.')
      })

      it('answers 401 to the key sent in the wrong header', async () => {
        expectProblem(await send('GET', '/v1/tags', bearer(API_KEY)), 401, 'invalid_credentials')
      })

      it('answers 403 to a token of another scheme holding the scope the rule asks of the key scheme', async () => {
        expectProblem(await send('POST', '/v1/tags', as('alice', 'tags:write'), { name: 'x' }), 403, 'forbidden')
        expect((await send('GET', '/v1/tags', as('alice'))).statusCode).toBe(200)
      })
    })
  })
}

describe('a JWKS that cannot be read', () => {
  let app: FastifyInstance
  let storage: TestStorage
  let keySet: Server
  let answer: 'hang' | 'error' | 'garbage' | 'keys' = 'hang'
  const partnerToken = (kid: string) =>
    signJwt({ ...PARTNER, sub: 'p', exp: now() + 60 }, { alg: 'RS256', privateKey, kid })

  beforeAll(async () => {
    const key = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }
    keySet = createServer((_request, response) => {
      if (answer === 'hang') return
      response.statusCode = answer === 'error' ? 500 : 200
      response.end(answer === 'keys' ? JSON.stringify({ keys: [key] }) : answer === 'garbage' ? '<html>' : '{}')
    })
    await new Promise<void>((resolve) => keySet.listen(0, '127.0.0.1', resolve))
    const jwksUrl = `http://127.0.0.1:${(keySet.address() as AddressInfo).port}/jwks.json`
    storage = await openTestStorage('sqlite', allTables)
    const schemes = api.auth!.schemes.map((scheme): AuthScheme =>
      scheme.type === 'jwt' && scheme.jwksUrl !== null ? { ...scheme, jwksUrl } : scheme,
    )
    app = await buildApiServer(
      { ...api, auth: { ...api.auth!, schemes } },
      { storage: storage.storage, docs: false, env: { AUTH_TEST_JWT_SECRET: SECRET }, timeouts: { jwksMs: 200 } },
    )
  })
  afterAll(async () => {
    await app.close()
    await storage.dispose()
    keySet.closeAllConnections()
    await new Promise<void>((resolve) => keySet.close(() => resolve()))
  })

  it.each(['hang', 'error', 'garbage'] as const)(
    'answers 503 with Retry-After, not a hang or a 401, when the JWKS server answers with %s',
    async (mode) => {
      answer = mode
      const response = await app.inject({ url: '/v1/posts', headers: bearer(partnerToken(`key-${mode}`)) })
      expect(response.statusCode, response.body).toBe(503)
      expect(response.json().code).toBe('service_unavailable')
      expect(response.headers['retry-after']).toBe('1')
    },
  )

  it('still verifies the other schemes’ tokens, and answers 401 to a key id the set lacks', async () => {
    answer = 'hang'
    expect((await app.inject({ url: '/v1/notes', headers: as('alice') })).statusCode).toBe(200)
    answer = 'keys'
    const unknown = await app.inject({ url: '/v1/posts', headers: bearer(partnerToken('unknown-kid')) })
    expect(unknown.statusCode, unknown.body).toBe(401)
    expect((await app.inject({ url: '/v1/posts', headers: bearer(partnerToken('k1')) })).statusCode).toBe(200)
  })
})
