import { randomBytes } from 'node:crypto'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import type { ContractRuleId } from '../../generator/contract/contract-rules.js'
import { loadManifestApi } from '../migrate/load-manifest-api.js'
import { injectJson } from '../support/inject-json.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { BASE, SCENARIOS, withV2 } from './breaking-rule-scenarios.js'

/**
 * Issue 18, item 1, over HTTP: for every breaking rule a change kind declares
 * (breaking-rules-way-forward.test.ts), the manifest that declares it serves
 * v1 as published and v2 as changed, over one database, on both dialects.
 */
const SECRET = randomBytes(32).toString('hex')
const now = () => Math.floor(Date.now() / 1000)
const token = (sub: string, scope = '') =>
  `Bearer ${signJwt(
    { iss: 'https://auth.example.test/', aud: 'rules', sub, scope, iat: now(), exp: now() + 300 },
    { alg: 'HS256', secret: SECRET },
  )}`

interface Probe {
  call(options: InjectOptions): Promise<{ status: number; body: any }>
  /** A book created through v1 (as alice) with `extra` fields; its id. */
  book(extra?: object): Promise<number>
}

/** What v1 and v2 each answer once the break is declared: v1 its published contract, v2 the new one. */
const PROBES: Partial<Record<ContractRuleId, (probe: Probe) => Promise<void>>> = {
  async PATH_REMOVED({ call, book }) {
    const id = await book()
    expect((await call({ method: 'POST', url: `/v1/books/${id}/comments`, payload: { text: 'Hm' } })).status).toBe(201)
    expect((await call({ method: 'GET', url: `/v2/books/${id}/comments` })).status).toBe(404)
  },
  async RESOURCE_RENAMED({ call, book }) {
    const id = await book()
    const { body } = await call({ method: 'GET', url: `/v1/books/${id}` })
    expect((await call({ method: 'GET', url: `/v1/authors/${body.data.author_id}` })).status).toBe(200)
    const onV2 = await call({ method: 'GET', url: `/v2/books/${id}?include=writer` })
    expect(onV2.body.data.writer).toMatchObject({ id: body.data.author_id, name: 'Ann' })
    expect((await call({ method: 'GET', url: '/v2/authors' })).status).toBe(404)
  },
  async RESOURCE_REROOTED({ call, book }) {
    const id = await book()
    const comment = await call({ method: 'POST', url: `/v1/books/${id}/comments`, payload: { text: 'Hm' } })
    expect(comment.status).toBe(201)
    const listed = await call({ method: 'GET', url: `/v2/comments?book_id=${id}` })
    expect(listed.body.data.map((row: { id: number }) => row.id)).toEqual([comment.body.data.id])
    expect((await call({ method: 'GET', url: `/v2/books/${id}/comments` })).status).toBe(404)
  },
  async RESPONSE_FIELD_REMOVED({ call, book }) {
    const id = await book({ pages: 12 })
    expect((await call({ method: 'GET', url: `/v1/books/${id}` })).body.data.pages).toBe(12)
    expect((await call({ method: 'GET', url: `/v2/books/${id}` })).body.data).not.toHaveProperty('pages')
    const withPages = { title: 'T', author_id: 1, pages: 3 }
    expect((await call({ method: 'POST', url: '/v2/books', payload: withPages })).status).toBe(400)
  },
  async RESPONSE_FIELD_RENAMED({ call, book }) {
    const id = await book()
    expect((await call({ method: 'GET', url: `/v1/books/${id}` })).body.data.title).toBe('Dune')
    const onV2 = (await call({ method: 'GET', url: `/v2/books/${id}` })).body.data
    expect(onV2).toMatchObject({ heading: 'Dune' })
    expect(onV2).not.toHaveProperty('title')
  },
  async REQUEST_FIELD_REQUIRED_ADDED({ call, book }) {
    const id = await book()
    expect((await call({ method: 'GET', url: `/v2/books/${id}` })).body.data.isbn).toBe('unknown')
    expect((await call({ method: 'GET', url: `/v1/books/${id}` })).body.data).not.toHaveProperty('isbn')
    const { body } = await call({ method: 'GET', url: `/v1/books/${id}` })
    const withoutIsbn = { title: 'T', author_id: body.data.author_id }
    expect((await call({ method: 'POST', url: '/v2/books', payload: withoutIsbn })).status).toBe(400)
  },
  async SECURITY_REQUIREMENT_ADDED({ call, book }) {
    const id = await book()
    const { body } = await call({ method: 'GET', url: `/v1/books/${id}` })
    const payload = { title: 'Anonymous', author_id: body.data.author_id }
    expect((await call({ method: 'POST', url: '/v1/books', payload })).status).toBe(201)
    expect((await call({ method: 'POST', url: '/v2/books', payload: { ...payload, isbn: 'x' } })).status).toBe(401)
  },
  async SECURITY_TIGHTENED({ call, book }) {
    const admin = { authorization: token('root', 'books:admin') }
    expect((await call({ method: 'DELETE', url: `/v1/books/${await book()}`, headers: admin })).status).toBe(204)
    expect((await call({ method: 'DELETE', url: `/v2/books/${await book()}`, headers: admin })).status).toBe(403)
  },
  async OWNER_RULE_ADDED({ call, book }) {
    const id = await book()
    const bob = { authorization: token('bob') }
    const patch = { title: 'Bob was here' }
    expect((await call({ method: 'PATCH', url: `/v1/books/${id}`, headers: bob, payload: patch })).status).toBe(200)
    // Someone else's record: 403 to a caller the owner rule limits to their own.
    expect((await call({ method: 'PATCH', url: `/v2/books/${id}`, headers: bob, payload: patch })).status).toBe(403)
  },
}
PROBES.REQUEST_FIELD_REMOVED = PROBES.RESPONSE_FIELD_REMOVED
PROBES.REQUEST_FIELD_RENAMED = PROBES.RESPONSE_FIELD_RENAMED

const DECLARED = SCENARIOS.filter((scenario) => scenario.change !== undefined)

it('probes every breaking rule a change kind declares', () => {
  expect(Object.keys(PROBES).sort()).toEqual(DECLARED.map(({ rule }) => rule).sort())
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: both versions serve their own contract once the break is declared`, () => {
    for (const scenario of DECLARED) {
      describe(scenario.rule, () => {
        let app: FastifyInstance
        let storage: TestStorage
        beforeAll(async () => {
          const api = await loadManifestApi(withV2(scenario.edit!(BASE), scenario.change!))
          storage = await openTestStorage(dialect, api.tables)
          app = await api.buildServer({ storage: storage.storage, docs: false, env: { RULES_JWT_SECRET: SECRET } })
        }, 30_000)
        afterAll(async () => {
          await app?.close()
          await storage?.dispose()
        })

        it('answers v1 as published and v2 as changed', async () => {
          const call = (options: InjectOptions) => injectJson(app, options)
          const alice = { authorization: token('alice') }
          const author = await call({ method: 'POST', url: '/v1/authors', payload: { name: 'Ann' } })
          expect(author.status, JSON.stringify(author.body)).toBe(201)
          const book = async (extra: object = {}) => {
            const payload = { title: 'Dune', author_id: author.body.data.id, ...extra }
            const created = await call({ method: 'POST', url: '/v1/books', headers: alice, payload })
            expect(created.status, JSON.stringify(created.body)).toBe(201)
            return created.body.data.id as number
          }
          await PROBES[scenario.rule]!({ call, book })
        })
      })
    }
  })
}
