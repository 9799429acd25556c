/**
 * A nested create racing the DELETE of its parent (issue 18 item 14) answers
 * 201 or 404 on every database, never a 400 on the parent key the client did
 * not send. The parent's read rule is the owner's (test/fixtures/auth-api:
 * notes and their replies), so the create checks the parent key readable
 * (ensureReadableReferences) between finding the parent and inserting: a
 * window in which PostgreSQL's pool let the DELETE commit.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'
import type { RowFilter, Storage } from '../../runtime/storage/storage.js'
import { buildServer } from '../fixtures/auth-api/generated/server.js'
import { allTables, notesTable } from '../fixtures/auth-api/generated/schema.js'
import { DIALECTS, openTestStorage, type Dialect } from '../support/test-storage.js'

const SECRET = randomBytes(32).toString('hex')
const ROUNDS = 20
const CREATES_PER_ROUND = 10

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function openApi(dialect: Dialect, wrap: (storage: Storage) => Storage = (storage) => storage) {
  const storage = await openTestStorage(dialect, allTables)
  cleanups.push(() => storage.dispose())
  const app: FastifyInstance = await buildServer({
    storage: wrap(storage.storage),
    docs: false,
    env: { AUTH_TEST_JWT_SECRET: SECRET, AUTH_TEST_API_KEYS: '[]' },
  })
  cleanups.push(() => app.close())
  const now = Math.floor(Date.now() / 1000)
  const claims = { iss: 'https://auth.example.test/', aud: 'auth-api', sub: 'alice', iat: now, exp: now + 600 }
  const authorization = `Bearer ${signJwt(claims, { alg: 'HS256', secret: SECRET })}`
  return async (method: 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) })
    return { status: response.statusCode, body: response.body === '' ? undefined : response.json() }
  }
}

/** The outcomes of `responses` as `<status> <code>`, each once. */
function outcomesOf(responses: readonly { status: number; body?: { code?: string } }[]): string[] {
  return [...new Set(responses.map((response) => `${response.status} ${response.body?.code ?? 'created'}`))].sort()
}

describe.each(DIALECTS)('%s: a nested create racing the DELETE of its parent', (dialect) => {
  it(`answers each of ${CREATES_PER_ROUND} concurrent creates 201 or 404, over ${ROUNDS} rounds`, async () => {
    const call = await openApi(dialect)
    const responses = []
    for (let round = 0; round < ROUNDS; round++) {
      const note = (await call('POST', '/v1/notes', { text: `note ${round}` })).body.data
      const creates = Array.from({ length: CREATES_PER_ROUND }, () =>
        call('POST', `/v1/notes/${note.id}/replies`, { text: 'racing' }),
      )
      const deletion = call('DELETE', `/v1/notes/${note.id}`)
      responses.push(...(await Promise.all(creates)))
      expect((await deletion).status).toBe(204)
    }
    // Which of them wins varies; that no other answer appears does not.
    for (const outcome of outcomesOf(responses)) expect(['201 created', '404 not_found']).toContain(outcome)
  })

  it('answers 404 when the parent goes between the route finding it and the readable-reference check', async () => {
    let finds = 0
    const call = await openApi(
      dialect,
      (storage) =>
        new Proxy(storage, {
          get(target, key) {
            if (key === 'find') {
              return async (table: TableDefinition, id: number, rowFilter?: RowFilter) => {
                // The first look is the route's (resolveParent), the second the readable-reference check's.
                if (table === notesTable && ++finds === 2) expect(await target.delete(table, id)).toBe(true)
                return target.find(table, id, rowFilter)
              }
            }
            const value: unknown = Reflect.get(target, key)
            // KyselyStorage keeps its state in private fields, reachable only with itself as `this`.
            return typeof value === 'function' ? value.bind(target) : value
          },
        }),
    )
    const note = (await call('POST', '/v1/notes', { text: 'going' })).body.data
    finds = 0
    const created = await call('POST', `/v1/notes/${note.id}/replies`, { text: 'too late' })
    expect(created).toMatchObject({ status: 404, body: { code: 'not_found', detail: `No note with id ${note.id}.` } })
  })
})
