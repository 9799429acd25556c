/**
 * Packaging test: install the tarball packed from a copy of this checkout (as a
 * fresh clone has it; test/support/package-global-setup.ts) into an empty project outside it, and there run `restmint
 * generate`, `check` and `serve` the way a user would. This is what proves that
 * `files`, `exports`, `bin` and `prepack` in package.json are enough for the
 * published package to work.
 *
 * The tarball's dependencies come from the npm cache when it has them
 * (`--prefer-offline`), and better-sqlite3's install script (which npm must be
 * allowed to run) finds the native addon this checkout already built as a
 * local prebuild, instead of compiling it again for a minute.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { REPO } from '../support/copy-checkout.js'
import { cleanEnv, expectSuccess, runCommand } from '../support/run-command.js'

const INSTALL_TIMEOUT_MS = 300_000

const run = (command: string, args: readonly string[], cwd: string, timeout = INSTALL_TIMEOUT_MS) =>
  runCommand(command, args, cwd, { timeout })

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.unref()
    server.on('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => done(port))
    })
  })
}

function exited(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  }
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`process ${child.pid} still running after ${ms} ms`)), ms)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      done({ code, signal })
    })
  })
}

const MANIFEST = `# A small manifest for the packaging test.
restmint: 1
service:
  title: Package Test API
versions:
  v1: {}
resources:
  authors:
    fields:
      name: { type: string, required: true, max_length: 200 }
      email: { type: string, format: email }
  books:
    parent: authors
    fields:
      title: { type: string, required: true }
`

describe('the npm package', () => {
  const { tarball, files: packedFiles, readme: readmeAtPackTime, installEnv } = inject('packedPackage')
  let project = ''
  let server: ChildProcess | undefined

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'restmint-consumer-'))
    // An empty ESM project that, like this repository, lets exactly these two
    // dependencies run their install scripts (npm 11 blocks the rest).
    await writeFile(
      join(project, 'package.json'),
      `${JSON.stringify(
        {
          name: 'restmint-consumer',
          version: '1.0.0',
          private: true,
          type: 'module',
          allowScripts: { 'better-sqlite3': true, esbuild: true },
        },
        null,
        2,
      )}\n`,
    )
    const install = await runCommand(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball],
      project,
      {
        timeout: INSTALL_TIMEOUT_MS,
        env: installEnv,
      },
    )
    expectSuccess(install, 'npm install <tarball>')
    const addon = join(project, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
    if (!existsSync(addon)) {
      throw new Error(
        `better-sqlite3 was installed without its native addon (install script blocked?)\n${install.stderr}`,
      )
    }
    await writeFile(join(project, 'resources.yaml'), MANIFEST)
  }, INSTALL_TIMEOUT_MS)

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
    if (project !== '') await rm(project, { recursive: true, force: true })
  })

  it('packs the CLI, the runtime, the templates and the manifest schema, and nothing else', () => {
    const expected = [
      'package.json',
      'bin/restmint.js',
      'dist/generator/cli/main.js',
      'dist/runtime/index.js',
      'dist/runtime/index.d.ts',
      'manifest.schema.json',
      'templates/server.ts.hbs',
    ]
    if (readmeAtPackTime) expected.push('README.md')
    for (const path of expected) expect(packedFiles, path).toContain(path)
    // Every template in the repository ships.
    const templates = packedFiles.filter((path) => path.startsWith('templates/') && path.endsWith('.hbs'))
    expect(templates.length).toBeGreaterThanOrEqual(5)
    // A clean build: nothing left from earlier builds, no incremental build info.
    expect(packedFiles).not.toContain('dist/generator/deleted-source.js')
    expect(packedFiles).not.toContain('dist/.tsbuildinfo')
    for (const path of packedFiles) {
      expect(path, path).not.toMatch(/^(test|generated|node_modules|bench|docs|runtime|generator|\.ci)\//)
      expect(path, path).not.toMatch(/(^|\/)(tsconfig[^/]*\.json|vitest\.config\.ts|resources\.yaml|\.restmint-files)$/)
    }
  })

  it('generates and checks a manifest with the installed bin, which knows its version', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }
    const [versionRun, generate] = await Promise.all([
      run('npx', ['--no', '--', 'restmint', '--version'], project, 60_000),
      run('npx', ['--no', 'restmint', 'generate'], project, 60_000),
    ])
    expectSuccess(versionRun, 'restmint --version')
    expect(versionRun.stdout).toBe(`${version}\n`)
    expectSuccess(generate, 'restmint generate')
    expect(existsSync(join(project, 'generated/server.ts'))).toBe(true)
    expect(existsSync(join(project, 'generated/v1/routes/authors.ts'))).toBe(true)

    const check = await run('npx', ['--no', 'restmint', 'check'], project, 60_000)
    expectSuccess(check, 'restmint check')
    expect(check.stdout).toContain('up to date')
  })

  it('serves the generated API and stops cleanly on SIGTERM', async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    // The bin itself, not `npx restmint serve`: npx runs it under `sh -c` and
    // does not pass SIGTERM on, which would leave the server running.
    const child = spawn(
      join(project, 'node_modules/.bin/restmint'),
      ['serve', '--db', 'sqlite::memory:', '--port', String(port)],
      { cwd: project, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    )
    server = child
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
    const output = (): string => `--- stdout\n${stdout}\n--- stderr\n${stderr}`

    let list: Response | undefined
    const deadline = Date.now() + 20_000
    while (list === undefined) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`restmint serve exited early (${child.exitCode ?? child.signalCode})\n${output()}`)
      }
      if (Date.now() > deadline) throw new Error(`restmint serve did not answer within 20 s\n${output()}`)
      try {
        list = await fetch(`${base}/v1/authors`, { signal: AbortSignal.timeout(2_000) })
      } catch {
        await new Promise((done) => setTimeout(done, 200))
      }
    }
    expect(list.status, output()).toBe(200)
    expect(await list.json()).toEqual({
      data: [],
      meta: { page: 1, per_page: 20, total: 0, total_pages: 0, next_cursor: null, count: 'exact' },
      links: expect.objectContaining({ self: expect.any(String), prev: null, next: null }),
    })
    expect(stdout).toContain(`at ${base}`)

    const created = await fetch(`${base}/v1/authors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada Lovelace' }),
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe('/v1/authors/1')
    const body = (await created.json()) as { data: Record<string, unknown> }
    expect(body.data).toMatchObject({ id: 1, name: 'Ada Lovelace', email: null })

    const fetched = await fetch(`${base}/v1/authors/1`)
    expect(fetched.status).toBe(200)
    expect(await fetched.json()).toEqual({ data: body.data })

    const nested = await fetch(`${base}/v1/authors/1/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Notes' }),
    })
    expect(nested.status).toBe(201)
    expect(await nested.json()).toMatchObject({ data: { id: 1, author_id: 1, title: 'Notes' } })

    // The API reference page ships its assets with the installed dependencies.
    const docs = await fetch(`${base}/docs`)
    expect(docs.status).toBe(200)
    await docs.arrayBuffer()

    child.kill('SIGTERM')
    const { code, signal } = await exited(child, 5_000)
    expect({ code, signal }, output()).toEqual({ code: 0, signal: null })
    expect(stdout).toContain('SIGTERM received')
  }, 60_000)
})
