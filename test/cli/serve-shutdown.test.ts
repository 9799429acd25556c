/**
 * `restmint serve` on SIGTERM (issue 10, "Health and shutdown"): requests in
 * flight finish, new connections are refused, /health/ready says 503, the
 * process exits 0; past --shutdown-timeout, connections still open are closed.
 * "In flight" without timing: each request's headers are sent with
 * `Expect: 100-continue`, and its body only once the drain has begun.
 */
import { randomBytes } from 'node:crypto'
import { Agent, request } from 'node:http'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { beginPost, open, refuses, responses, waitFor } from '../support/raw-http.js'
import { spawnCli, type CliProcess } from '../support/spawn-cli.js'
import { DIALECTS, POSTGRES_URL } from '../support/test-postgres.js'

const SHOP_API = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/shop-api')

async function serve(
  dialect: string,
  args: string[],
): Promise<{ cli: CliProcess; port: number; done(): Promise<void> }> {
  const schema = `restmint_test_${randomBytes(6).toString('hex')}`
  const db = dialect === 'sqlite' ? 'sqlite::memory:' : POSTGRES_URL
  const cli = spawnCli(SHOP_API, ['serve', '--db', db, '--schema', schema, '--port', '0', ...args])
  const stdout = await cli.waitForStdout(/serving .*\n/)
  return {
    cli,
    port: Number(/at http:\/\/127\.0\.0\.1:(\d+) /.exec(stdout)![1]),
    async done() {
      await cli.stop('SIGKILL')
      if (dialect === 'sqlite') return
      const client = new pg.Client(POSTGRES_URL)
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await client.end()
    },
  }
}

/** What one request got: its status and the headers that matter here, or the socket error it failed with. */
type Outcome = { status: number; connection?: string; retryAfter?: string } | { error: string }

/** A POST on `agent`'s one keep-alive connection, settled with its outcome rather than failing. */
function postOutcome(agent: Agent, port: number, body: object): Promise<Outcome> {
  return new Promise((done) => {
    const payload = JSON.stringify(body)
    const sent = request(
      {
        agent,
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/v1/authors',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        response.resume()
        response.on('end', () => {
          const { connection, 'retry-after': retryAfter } = response.headers
          done({ status: response.statusCode!, connection, ...(retryAfter ? { retryAfter } : {}) })
        })
        response.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }))
      },
    )
    sent.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }))
    sent.end(payload)
  })
}

describe.each(DIALECTS)('%s: restmint serve on SIGTERM', { concurrent: true }, (dialect) => {
  it('finishes the requests in flight, refuses new connections, says not ready, and exits 0', async () => {
    // A deadline far beyond the test's timeout: the process must end because the drain did, not because time ran out.
    const { cli, port, done } = await serve(dialect, ['--shutdown-timeout', '600'])
    try {
      const creates = await Promise.all(['Ada', 'Grace'].map((name) => beginPost(port, '/v1/authors', { name })))
      // A keep-alive connection that has sent a whole request and part of the next, in one write.
      const probe = await open(port)
      probe.socket.write(
        'GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      )
      await waitFor(() => probe.received().includes('{"status":"live"}'))
      const idle = await open(port)

      const exited = cli.stop('SIGTERM')
      await waitFor(() => refuses(port))
      expect(await idle.closed).toBe('')
      probe.socket.write('\r\n')
      for (const create of creates) create.sendBody()

      const [, ready] = responses(await probe.closed)
      expect(ready).toMatchObject({
        status: 503,
        headers: { 'content-type': 'application/problem+json; charset=utf-8', connection: 'close' },
      })
      expect(JSON.parse(ready!.body)).toMatchObject({
        code: 'service_unavailable',
        detail: 'The server is shutting down.',
      })
      for (const [index, create] of creates.entries()) {
        const [created] = responses(await create.connection.closed)
        expect(created).toMatchObject({ status: 201, headers: { connection: 'close' } })
        expect(JSON.parse(created!.body)).toMatchObject({ data: { name: ['Ada', 'Grace'][index] } })
      }
      expect(await exited, cli.output().stderr).toEqual({ code: 0, signal: null })
      expect(cli.output().stdout).toContain(
        'restmint: SIGTERM received, finishing the requests in flight, then closing\n',
      )
    } finally {
      await done()
    }
  })

  it('closes the connections still open at --shutdown-timeout, and exits 0', async () => {
    const { cli, port, done } = await serve(dialect, ['--shutdown-timeout', '0.2'])
    try {
      const stalled = await beginPost(port, '/v1/authors', { name: 'Ada' })
      const exited = cli.stop('SIGTERM')
      // Its body never comes: the deadline, not the request's own 30 s timeout, ends it.
      expect(responses(await stalled.connection.closed)).toEqual([])
      expect(await exited, cli.output().stderr).toEqual({ code: 0, signal: null })
    } finally {
      await done()
    }
  })

  it('answers every request of keep-alive clients at load: completed, or 503 with Connection: close and Retry-After', async () => {
    const { cli, port, done } = await serve(dialect, ['--shutdown-timeout', '600'])
    const agents = Array.from({ length: 20 }, () => new Agent({ keepAlive: true, maxSockets: 1 }))
    try {
      const outcomes: Outcome[] = []
      let loaded = 0
      let stopping: Promise<unknown> | undefined
      // Each client sends back to back on its one connection until an answer says the connection closes
      // (or a request fails): no request is ever sent on a connection the server announced it would close.
      const clients = agents.map(async (agent, client) => {
        for (let sent = 0; ; sent++) {
          const outcome = await postOutcome(agent, port, { name: `client ${client} request ${sent}` })
          outcomes.push(outcome)
          if ('error' in outcome || outcome.connection === 'close') return
          // SIGTERM once every client has had three answers: all 20 connections are busy, none idle long.
          if (sent === 2 && ++loaded === agents.length) stopping = cli.stop('SIGTERM')
        }
      })
      await Promise.all(clients)
      expect(await stopping, cli.output().stderr).toEqual({ code: 0, signal: null })
      // No request was reset or left unanswered; each was served, or refused in a way a client can retry.
      const errors = outcomes.filter((outcome) => 'error' in outcome)
      expect(errors, `${errors.length} of ${outcomes.length} requests failed`).toEqual([])
      for (const outcome of outcomes) {
        if ('error' in outcome || outcome.status === 201) continue
        expect(outcome).toEqual({ status: 503, connection: 'close', retryAfter: expect.stringMatching(/^\d+$/) })
      }
      // Every connection ended with an answer saying so, the drain's doing, not the client's.
      expect(outcomes.filter((outcome) => !('error' in outcome) && outcome.connection === 'close')).toHaveLength(20)
    } finally {
      for (const agent of agents) agent.destroy()
      await done()
    }
  })

  it('closes a keep-alive connection that stays idle through the drain, and exits 0 long before the deadline', async () => {
    const { cli, port, done } = await serve(dialect, ['--shutdown-timeout', '600'])
    try {
      const idle = await open(port)
      idle.socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      await waitFor(() => idle.received().includes('{"status":"live"}'))
      const exited = cli.stop('SIGTERM')
      // The server, not the client and not the deadline, closes it, having sent nothing more.
      expect(responses(await idle.closed)).toHaveLength(1)
      expect(await exited, cli.output().stderr).toEqual({ code: 0, signal: null })
    } finally {
      await done()
    }
  })
})

describe("restmint serve --listen-when-told (restmint dev's next server)", () => {
  it('loads, listens only once a line arrives on stdin, and stops when stdin ends', async () => {
    const cli = spawnCli(
      SHOP_API,
      ['serve', '--db', 'sqlite::memory:', '--port', '0', '--listen-when-told'],
      {},
      'pipe',
    )
    try {
      // Loaded and waiting: it prints nothing until told (a server that listened would say so at once).
      await new Promise((done) => setTimeout(done, 1_500))
      expect(cli.output().stdout).not.toMatch(/serving/)
      cli.input('listen\n')
      const stdout = await cli.waitForStdout(/serving .*\n/)
      const port = Number(/at http:\/\/127\.0\.0\.1:(\d+) /.exec(stdout)![1])
      expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200)
      // restmint dev gone (killed: its end of the pipe closes): the server stops by itself, freeing the port.
      cli.input(null)
      expect(await cli.exited()).toEqual({ code: 0, signal: null })
      expect(cli.output().stdout).toMatch(/SIGTERM received/)
    } finally {
      await cli.stop('SIGKILL')
    }
  })

  it('exits 0 without serving when stdin ends first (restmint dev has gone)', async () => {
    const cli = spawnCli(
      SHOP_API,
      ['serve', '--db', 'sqlite::memory:', '--port', '0', '--listen-when-told'],
      {},
      'pipe',
    )
    cli.input(null)
    expect(await cli.exited()).toEqual({ code: 0, signal: null })
    expect(cli.output().stdout).not.toMatch(/serving/)
  })
})
