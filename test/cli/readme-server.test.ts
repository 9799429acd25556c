/**
 * Issue 16: the README's server.ts (buildServer, a route of one's own, listen,
 * SIGTERM) runs as written through tsx, against the example's migrations.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'

const root = join(import.meta.dirname, '../..')
const README = readFileSync(join(root, 'README.md'), 'utf8')

/** The README's complete server file: the TypeScript block that builds the server and adds a route. */
function serverFile(): string {
  const blocks = [...README.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((block) => block[1]!)
  const found = blocks.find((block) => block.includes('buildServer(') && block.includes("app.get('/hello'"))
  if (found === undefined) throw new Error('README.md has no server.ts block with buildServer and a route')
  return found
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as { port: number }
  await new Promise((closed) => server.close(closed))
  return port
}

describe("README's server.ts", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'restmint-readme-server-'))
  // Beside generated/, where the file's `./generated/server.js` import points.
  const file = join(root, `tmp-readme-server-${randomBytes(4).toString('hex')}.ts`)
  let child: ChildProcess | undefined
  afterAll(() => {
    child?.kill('SIGKILL')
    rmSync(file, { force: true })
    rmSync(scratch, { recursive: true, force: true })
  })

  it('serves the API and its own route, and exits 0 on SIGTERM', async () => {
    const db = `sqlite:${join(scratch, 'restmint.db')}`
    expect((await runCli(root, 'migrate', 'apply', '--db', db)).exitCode).toBe(0)
    writeFileSync(file, serverFile())
    const port = await freePort()
    let output = ''
    child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db, PORT: String(port), JWT_SECRET: randomBytes(32).toString('hex') },
    })
    child.stdout!.on('data', (chunk) => (output += chunk))
    child.stderr!.on('data', (chunk) => (output += chunk))
    const exited = new Promise<number | null>((done) => child!.once('exit', done))
    const base = `http://127.0.0.1:${port}`
    // Up once it answers: the process compiles the generated tree first.
    let hello: Response | undefined
    for (let attempt = 0; attempt < 600 && hello === undefined; attempt++) {
      hello = await fetch(`${base}/hello`).catch(() => undefined)
      if (hello === undefined) await new Promise((wait) => setTimeout(wait, 100))
    }
    expect(hello?.status, output).toBe(200)
    expect(await hello!.json()).toEqual({ hello: 'world' })
    expect((await fetch(`${base}/v2/authors`)).status).toBe(200)
    const missing = await fetch(`${base}/nowhere`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toContain('application/problem+json')
    child.kill('SIGTERM')
    expect(await exited, output).toBe(0)
  }, 120_000)
})
