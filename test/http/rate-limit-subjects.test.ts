/**
 * Issue 10: the per-client rate limit counts a verified token against its
 * subject; a token without `sub` names no one, so it counts against its
 * client's address (X-Forwarded-For, which test/fixtures/serving-api trusts
 * for one hop) rather than a bucket every such token would share. Rate
 * limits live in the server, not the database: SQLite only.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildServer } from '../fixtures/serving-api/generated/server.js'
import { allTables } from '../fixtures/serving-api/generated/schema.js'
import { openTestStorage, type TestStorage } from '../support/test-storage.js'

const JWT_SECRET = 'rate-limit-subjects-secret-of-32-bytes+'
const now = () => Math.floor(Date.now() / 1000)
const token = (claims: object) =>
  signJwt(
    { iss: 'https://auth.serving.test/', aud: 'serving-api', exp: now() + 300, ...claims },
    { alg: 'HS256', secret: JWT_SECRET },
  )

describe('rate limit clients of verified tokens', () => {
  let app: FastifyInstance
  let storage: TestStorage

  beforeAll(async () => {
    storage = await openTestStorage('sqlite', allTables)
    app = await buildServer({
      storage: storage.storage,
      docs: false,
      redisUrl: '',
      env: { SERVING_TEST_JWT_SECRET: JWT_SECRET },
    })
  })
  afterAll(async () => {
    await app?.close()
    await storage?.dispose()
  })

  /** The statuses of `count` GET /v1/tags (3 per minute per client) with `token` from `address`. */
  const statuses = async (address: string, bearer: string, count: number) => {
    const answers: number[] = []
    for (let sent = 0; sent < count; sent++) {
      const response = await app.inject({
        url: '/v1/tags',
        headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': address },
      })
      answers.push(response.statusCode)
    }
    return answers
  }

  it('counts tokens without a subject against their addresses, not against one another', async () => {
    expect(await statuses('10.9.0.1', token({ scope: 'a' }), 4)).toEqual([200, 200, 200, 429])
    expect(await statuses('10.9.0.2', token({ scope: 'b' }), 1)).toEqual([200])
  })

  it('counts one subject once, from every address', async () => {
    expect(await statuses('10.9.1.1', token({ sub: 'carol' }), 3)).toEqual([200, 200, 200])
    expect(await statuses('10.9.1.2', token({ sub: 'carol' }), 1)).toEqual([429])
  })
})
