/**
 * Two `restmint serve` processes over one PostgreSQL schema and one Redis
 * (issue 10, "N instances"): one rate limit across both, cursors and ETags
 * from one valid on the other, and a SIGTERM on one while requests run loses
 * none of them (each gets its answer; later connections are refused, never
 * reset). Requests go to 127.0.0.1 with X-Forwarded-For naming the client,
 * which the serving fixture trusts for one hop.
 */
import { randomBytes } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { beginPost, refuses, responses, waitFor } from '../support/raw-http.js'
import { spawnCli, type CliProcess } from '../support/spawn-cli.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'

const SERVING_API = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/serving-api')
const REDIS_URL = process.env.RESTMINT_TEST_REDIS ?? 'redis://127.0.0.1:6379'

interface Instance {
  readonly cli: CliProcess
  readonly url: string
  readonly port: number
}

describe.skipIf(POSTGRES_OFF)('two instances on one PostgreSQL and one Redis', () => {
  const schema = `restmint_test_${randomBytes(6).toString('hex')}`
  const prefix = `restmint-test-${randomBytes(6).toString('hex')}:`
  const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, RESTMINT_CURSOR_SECRET: randomBytes(32).toString('hex') }
  let instances: Instance[] = []

  beforeAll(async () => {
    instances = await Promise.all(
      [0, 1].map(async () => {
        const cli = spawnCli(SERVING_API, ['serve', '--db', POSTGRES_URL, '--schema', schema, '--port', '0'], env)
        const port = Number(/at http:\/\/127\.0\.0\.1:(\d+) /.exec(await cli.waitForStdout(/serving .*\n/))![1])
        return { cli, port, url: `http://127.0.0.1:${port}` }
      }),
    )
  })
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.cli.stop('SIGKILL')))
    const client = new pg.Client(POSTGRES_URL)
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await client.end()
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    redis.disconnect()
  })

  const send = (instance: Instance, path: string, init: RequestInit & { client?: string } = {}) =>
    fetch(`${instance.url}${path}`, {
      ...init,
      headers: { 'x-forwarded-for': init.client ?? '10.8.0.1', 'content-type': 'application/json', ...init.headers },
    })

  it('holds one rate limit across both: at most the limit of 2xx in the window, whichever answers', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        send(instances[index % 2]!, '/v1/tags', { client: '10.8.1.1' }).then((response) => response.status),
      ),
    )
    expect(statuses.filter((status) => status === 200)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(7)
  })

  it("takes one instance's cursors and ETags on the other", async () => {
    const [a, b] = instances as [Instance, Instance]
    for (const title of ['first', 'second', 'third']) {
      expect((await send(a, '/v1/notes', { method: 'POST', body: JSON.stringify({ title }) })).status).toBe(201)
    }
    const page = await (await send(a, '/v1/notes?per_page=1&sort=id')).json()
    const next = await send(b, `/v1/notes?per_page=1&sort=id&cursor=${encodeURIComponent(page.meta.next_cursor)}`)
    expect(next.status).toBe(200)
    expect((await next.json()).data.map((note: { title: string }) => note.title)).toEqual(['second'])

    const read = await send(a, `/v1/notes/${page.data[0].id}`)
    const tag = read.headers.get('etag')!
    expect((await send(b, `/v1/notes/${page.data[0].id}`, { headers: { 'if-none-match': tag } })).status).toBe(304)
    const patched = await send(b, `/v1/notes/${page.data[0].id}`, {
      method: 'PATCH',
      body: JSON.stringify({ views: 1 }),
      headers: { 'if-match': tag },
    })
    expect(patched.status).toBe(200)
    const stale = await send(a, `/v1/notes/${page.data[0].id}`, {
      method: 'PATCH',
      body: JSON.stringify({ views: 2 }),
      headers: { 'if-match': tag },
    })
    expect([stale.status, stale.headers.get('etag')]).toEqual([412, patched.headers.get('etag')])
  })

  it('loses no request when one instance is stopped while they run: each is answered, later ones refused', async () => {
    const [a, b] = instances as [Instance, Instance]
    const titles = Array.from({ length: 8 }, (_, index) => `in flight ${index}`)
    const inFlight = await Promise.all(titles.map((title) => beginPost(a.port, '/v1/notes', { title })))
    const exited = a.cli.stop('SIGTERM')
    await waitFor(() => refuses(a.port))
    for (const request of inFlight) request.sendBody()
    for (const request of inFlight) {
      const [answer] = responses(await request.connection.closed)
      expect(answer).toMatchObject({ status: 201, headers: { connection: 'close' } })
    }
    expect(await exited, a.cli.output().stderr).toEqual({ code: 0, signal: null })
    // The other instance carries on, and sees every record the stopped one created.
    const listed = await (await send(b, '/v1/notes?per_page=100&filter[title][starts_with]=in%20flight')).json()
    expect(listed.data.map((note: { title: string }) => note.title).sort()).toEqual([...titles].sort())
  })
})
