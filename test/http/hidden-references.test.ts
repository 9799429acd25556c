/**
 * A DELETE refused because rows still point at the record (409) counts those
 * rows only for a caller who may read them all (issue 18 item 17): an
 * anonymous caller deleting a public board learns that it is still
 * referenced, not how many private cards it holds.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { loadManifestApi } from '../migrate/load-manifest-api.js'
import { DIALECTS, POSTGRES_URL } from '../support/test-storage.js'

const MANIFEST = `
restmint: 1
service: { title: Boards }
versions: { v1: {} }
auth:
  schemes:
    user: { type: jwt, secret_env: BOARDS_JWT_SECRET, algorithms: [HS256], issuer: https://auth.test/, audience: boards }
  default: public
resources:
  boards:
    fields:
      name: { type: string, required: true }
  cards:
    owner: { field: owner_sub, claim: sub, scheme: user }
    access: { all: owner, read: [owner, { scopes: [cards:audit] }] }
    fields:
      title: { type: string, required: true }
    relations:
      board: { resource: boards, required: true }
`
const SECRET = randomBytes(32).toString('hex')

describe.each(DIALECTS)('%s: a 409 for a record still referenced', (dialect) => {
  const schema = `restmint_test_${randomBytes(6).toString('hex')}`
  let app: FastifyInstance
  beforeAll(async () => {
    const api = await loadManifestApi(MANIFEST)
    app = await api.buildServer({
      db: dialect === 'sqlite' ? 'sqlite::memory:' : POSTGRES_URL,
      schema,
      docs: false,
      env: { BOARDS_JWT_SECRET: SECRET },
    })
  })
  afterAll(async () => {
    await app?.close()
    if (dialect === 'sqlite') return
    const client = new pg.Client(POSTGRES_URL)
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await client.end()
  })

  const as = (sub: string, scope = '') => {
    const now = Math.floor(Date.now() / 1000)
    const claims = { iss: 'https://auth.test/', aud: 'boards', sub, scope, iat: now, exp: now + 600 }
    return { authorization: `Bearer ${signJwt(claims, { alg: 'HS256', secret: SECRET })}` }
  }
  const send = async (method: 'POST' | 'DELETE', url: string, headers = {}, payload?: object) => {
    const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    return { status: response.statusCode, body: response.body === '' ? undefined : response.json() }
  }

  it('counts the referencing rows only for a caller who can read every one of them', async () => {
    const board = (await send('POST', '/v1/boards', {}, { name: 'private work' })).body.data
    for (const sub of ['alice', 'alice', 'bob', 'bob', 'bob']) {
      expect((await send('POST', '/v1/cards', as(sub), { title: 'hidden', board_id: board.id })).status).toBe(201)
    }
    const refusals = {
      anonymous: await send('DELETE', `/v1/boards/${board.id}`),
      alice: await send('DELETE', `/v1/boards/${board.id}`, as('alice')),
      auditor: await send('DELETE', `/v1/boards/${board.id}`, as('carol', 'cards:audit')),
    }
    // The record cannot go while the cards exist, whoever asks: 409 for everyone.
    for (const refusal of Object.values(refusals)) {
      expect(refusal).toMatchObject({ status: 409, body: { code: 'still_referenced' } })
    }
    const hidden = `board ${board.id} is still referenced by rows of cards; delete or reassign those first.`
    // Anonymous callers read no card, alice two of five: neither learns how many there are.
    expect(refusals.anonymous.body.detail).toBe(hidden)
    expect(refusals.alice.body.detail).toBe(hidden)
    expect(refusals.auditor.body.detail).toBe(
      `board ${board.id} is still referenced by 5 rows of cards; delete or reassign those first.`,
    )
  })
})
