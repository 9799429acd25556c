/**
 * `restmint dev` (issue 16, section 5), one process through a session: it
 * serves the manifest, follows a save that adds a field (writing the
 * migration and applying it), restarts on a change to a file the app module
 * imports, and keeps the last good server when the manifest breaks or a save
 * would lose data.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCliProcess, spawnCli, type CliProcess } from '../support/spawn-cli.js'

const MANIFEST = `restmint: 1
service:
  title: Dev API
versions:
  v1: {}
app: ./src/app.ts
resources:
  authors:
    fields:
      name: { type: string, required: true }
    hooks: [beforeCreate]
`

// The hook adds the suffix of the module's own import to every new author's name.
const APP_MODULE = `import { defineApp } from 'restmint/runtime'
import { suffix } from './suffix.js'

export default defineApp({
  hooks: { authors: { beforeCreate: async ({ body }) => ({ ...body, name: body.name + suffix }) } },
})
`

/** Polls `probe` until it returns a value (not undefined); fails with `describe()` after `ms`. */
async function eventually<T>(probe: () => Promise<T | undefined>, describe: () => string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`gave up after ${ms} ms\n${describe()}`)
    await new Promise((next) => setTimeout(next, 50))
  }
}

describe('restmint dev', () => {
  let project = ''
  let dev: CliProcess | undefined
  afterEach(async () => {
    await dev?.stop()
    await rm(project, { recursive: true, force: true })
  })
  /** `restmint dev` in a new project of MANIFEST and APP_MODULE, its module importing `suffix`. */
  const startDev = async (suffix: string): Promise<CliProcess> => {
    project = await mkdtemp(join(tmpdir(), 'restmint-dev-'))
    await mkdir(join(project, 'src'))
    await writeFile(join(project, 'resources.yaml'), MANIFEST)
    await writeFile(join(project, 'src/app.ts'), APP_MODULE)
    await writeFile(join(project, 'src/suffix.ts'), `export const suffix = ${JSON.stringify(suffix)}\n`)
    return (dev = spawnCli(project, ['dev', '--port', '0']))
  }

  it('follows saves of the manifest and the module; keeps the last good server on a bad or lossy manifest', async () => {
    const cli = await startDev(' (first)')
    const output = () => `--- stdout\n${cli.output().stdout}\n--- stderr\n${cli.output().stderr}`

    const started = await cli.waitForStdout(/up to date with resources\.yaml/, 60_000)
    expect(started).toContain('Created migrations/0001_init/')
    const base = /serving \S+ at (http:\/\/\S+)/.exec(started)![1]!
    const created = await fetch(`${base}/v1/authors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    })
    expect(created.status).toBe(201)
    expect(((await created.json()) as { data: object }).data).toMatchObject({ name: 'Ada (first)' })

    // A new field: migrated, applied to data/restmint.db, served.
    await writeFile(
      join(project, 'resources.yaml'),
      MANIFEST.replace('      name: { type: string, required: true }\n', '$&      email: { type: string }\n'),
    )
    const author = await eventually(async () => {
      const body = (await (await fetch(`${base}/v1/authors/1`)).json()) as { data: Record<string, unknown> }
      return 'email' in body.data ? body.data : undefined
    }, output)
    expect(author).toMatchObject({ id: 1, name: 'Ada (first)', email: null })
    expect(cli.output().stdout).toContain('Created migrations/0002_add_authors_email/')
    const migration = await readFile(join(project, 'migrations/0002_add_authors_email/sqlite.sql'), 'utf8')
    expect(migration).toContain('email')

    // A file the module imports: the server restarts with it.
    await writeFile(join(project, 'src/suffix.ts'), `export const suffix = ' (second)'\n`)
    await eventually(async () => {
      const response = await fetch(`${base}/v1/authors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Grace', email: 'grace@example.com' }),
      })
      const { data } = (await response.json()) as { data: { name: string } }
      return data.name === 'Grace (second)' ? true : undefined
    }, output)

    // A broken manifest: its diagnostics, and the last good server still answers.
    const broken = (await readFile(join(project, 'resources.yaml'), 'utf8')).replace('  authors:', '  author:')
    await writeFile(join(project, 'resources.yaml'), broken)
    await eventually(
      async () => (/the last good server is still running/.test(cli.output().stderr) ? true : undefined),
      output,
    )
    expect(cli.output().stderr).toContain('resources.yaml:8:3: error NAMING_PLURAL')
    const still = await fetch(`${base}/v1/authors/1`)
    expect(still.status).toBe(200)
    expect(((await still.json()) as { data: object }).data).toMatchObject({ email: null })

    // A change that would lose data: refused with the flag that accepts it; nothing migrated, the server unchanged.
    await writeFile(join(project, 'resources.yaml'), MANIFEST)
    await eventually(
      async () => (/MIGRATION_DATA_LOSS[\s\S]*still running/.test(cli.output().stderr) ? true : undefined),
      output,
    )
    expect(cli.output().stderr).toContain('pass --allow-data-loss to accept the loss')
    expect(cli.output().stderr).toContain(
      'restmint dev: to accept it, run npx restmint migrate create with the flag named above',
    )
    expect((await readdir(join(project, 'migrations'))).sort()).toEqual(['0001_init', '0002_add_authors_email'])
    expect((await fetch(`${base}/v1/authors/1`)).status).toBe(200)

    expect(await cli.stop()).toEqual({ code: 0, signal: null })
  }, 240_000)

  it('on a port another process holds: says so and exits 1, as serve does', async () => {
    project = await mkdtemp(join(tmpdir(), 'restmint-dev-'))
    await writeFile(join(project, 'resources.yaml'), MANIFEST.replace(/^app: .*\n|^    hooks: .*\n/gm, ''))
    const holder = createServer()
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', () => listening()))
    const port = (holder.address() as AddressInfo).port
    try {
      const finished = await runCliProcess(project, ['dev', '--port', String(port)])
      expect(finished.stderr).toBe(`restmint: port ${port} on 127.0.0.1 is already in use; pass another with --port\n`)
      expect({ exitCode: finished.exitCode, signal: finished.signal }).toEqual({ exitCode: 1, signal: null })
    } finally {
      holder.close()
    }
  }, 60_000)

  it('killed with SIGKILL, leaves no server behind holding its port', async () => {
    const cli = await startDev('')
    const started = await cli.waitForStdout(/up to date with resources\.yaml/, 60_000)
    const base = /serving \S+ at (http:\/\/\S+)/.exec(started)![1]!
    expect((await fetch(`${base}/health/live`)).status).toBe(200)
    expect(await cli.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' })
    // Its serve process sees its stdin end, drains and exits: the port refuses connections.
    await eventually(
      () =>
        fetch(`${base}/health/live`).then(
          () => undefined,
          () => true,
        ),
      () => 'the server still answers after restmint dev was killed',
      20_000,
    )
  }, 120_000)
})
