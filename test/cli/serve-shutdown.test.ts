/**
 * `restmint serve` on SIGTERM (issue 10, "Health and shutdown"): requests in
 * flight finish, new connections are refused, /health/ready says 503, the
 * process exits 0; past --shutdown-timeout, connections still open are closed.
 * "In flight" without timing: each request's headers are sent with
 * `Expect: 100-continue`, and its body only once the drain has begun.
 */
import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { spawnCli, type CliProcess } from '../support/spawn-cli.js'
import { DIALECTS, POSTGRES_URL } from '../support/test-postgres.js'

const SHOP_API = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/shop-api')

/** An open connection: what it has received so far, and a promise of everything once the server closes it. */
interface Connection {
  readonly socket: Socket
  received(): string
  closed: Promise<string>
}

async function open(port: number): Promise<Connection> {
  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((connected, fail) => socket.once('connect', connected).once('error', fail))
  let text = ''
  socket.on('data', (chunk: Buffer) => void (text += chunk.toString()))
  const closed = new Promise<string>((done) => socket.on('close', () => done(text)))
  return { socket, received: () => text, closed }
}

async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((next) => setTimeout(next, 20))
}

/** A POST /v1/authors the server has begun (it answered 100 Continue) and whose body the test holds back. */
async function beginCreate(port: number, name: string): Promise<{ connection: Connection; sendBody(): void }> {
  const connection = await open(port)
  const body = JSON.stringify({ name })
  connection.socket.write(
    'POST /v1/authors HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  )
  await waitFor(() => connection.received().startsWith('HTTP/1.1 100 Continue\r\n\r\n'))
  return { connection, sendBody: () => void connection.socket.write(body) }
}

/** Whether connecting to `port` is refused: the server no longer accepts connections. */
function refuses(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      answer(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => answer(error.code === 'ECONNREFUSED'))
  })
}

/** The final responses in `text` (interim 100 Continue left out): status, headers, body. */
function responses(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const found = []
  let rest = text
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n')
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n')
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    )
    const length = Number(headers['content-length'] ?? 0)
    const status = Number(statusLine.split(' ')[1])
    if (status !== 100) found.push({ status, headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) })
    rest = rest.slice(headEnd + 4 + length)
  }
  return found
}

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

describe.each(DIALECTS)('%s: restmint serve on SIGTERM', { concurrent: true }, (dialect) => {
  it('finishes the requests in flight, refuses new connections, says not ready, and exits 0', async () => {
    // A deadline far beyond the test's timeout: the process must end because the drain did, not because time ran out.
    const { cli, port, done } = await serve(dialect, ['--shutdown-timeout', '600'])
    try {
      const creates = await Promise.all(['Ada', 'Grace'].map((name) => beginCreate(port, name)))
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
      const stalled = await beginCreate(port, 'Ada')
      const exited = cli.stop('SIGTERM')
      // Its body never comes: the deadline, not the request's own 30 s timeout, ends it.
      expect(responses(await stalled.connection.closed)).toEqual([])
      expect(await exited, cli.output().stderr).toEqual({ code: 0, signal: null })
    } finally {
      await done()
    }
  })
})
