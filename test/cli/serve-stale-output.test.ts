import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'

const exampleManifest = join(import.meta.dirname, '..', 'cases', 'naming-plural-good', 'resources.yaml')

// Projects share a node_modules/ (so a render cache) under one root.
const root = mkdtempSync(join(tmpdir(), 'restmint-serve-stale-'))
mkdirSync(join(root, 'node_modules'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/**
 * Serve with a port it rejects: everything before listening (the freshness
 * check) runs, and the run ends without a server to stop.
 */
const BAD_PORT = ['--port', 'none']
const PAST_THE_CHECK = 'restmint: --port must be a whole number from 0 to 65535, not "none"\n'

describe('restmint serve and a stale generated/', () => {
  let project: string
  beforeEach(async () => {
    project = mkdtempSync(join(root, 'project-'))
    cpSync(exampleManifest, join(project, 'resources.yaml'))
    expect((await runCli(project, 'generate')).exitCode).toBe(0)
  })

  function editManifest(): void {
    const manifest = join(project, 'resources.yaml')
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('title: { type: string', 'name: { type: string'))
  }

  it('records the manifest hash in .restmint-files', () => {
    expect(readFileSync(join(project, 'generated', '.restmint-files'), 'utf8')).toMatch(
      /^# manifest sha256: [0-9a-f]{64}$/m,
    )
  })

  it('serves output generated from the manifest as it is', async () => {
    expect(await runCli(project, 'serve', ...BAD_PORT)).toMatchObject({ exitCode: 1, stderr: PAST_THE_CHECK })
  })

  it('refuses output generated from another version of the manifest, naming the command that fixes it', async () => {
    editManifest()
    const run = await runCli(project, 'serve', ...BAD_PORT)
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toBe(
      'restmint: generated/ was generated from another version of resources.yaml; ' +
        'run restmint generate --manifest resources.yaml --out generated, or serve with --generate to regenerate first\n',
    )
  })

  it('regenerates first with --generate', async () => {
    editManifest()
    const run = await runCli(project, 'serve', '--generate', ...BAD_PORT)
    expect(run.stdout).toMatch(/^Generated generated\/ from resources\.yaml: [1-9]\d* written/)
    expect(run.stderr).toBe(PAST_THE_CHECK)
    expect((await runCli(project, 'check')).exitCode).toBe(0)
  })

  it('refuses output that records no manifest hash, and an output directory with nothing generated', async () => {
    const index = join(project, 'generated', '.restmint-files')
    writeFileSync(index, readFileSync(index, 'utf8').replace(/^# manifest sha256: .*\n/m, ''))
    const unknown = await runCli(project, 'serve', ...BAD_PORT)
    expect(unknown.stderr).toContain('restmint: generated/ records no manifest hash (an older restmint wrote it)')
    const missing = await runCli(project, 'serve', '--out', 'elsewhere', ...BAD_PORT)
    expect(missing.stderr).toContain(
      'restmint: elsewhere/ holds no output generated from resources.yaml; run restmint generate',
    )
  })

  it('checks against --manifest, and serves without a check when the manifest file is absent', async () => {
    cpSync(join(project, 'resources.yaml'), join(project, 'api.yaml'))
    editManifest()
    expect(await runCli(project, 'serve', '--manifest', 'api.yaml', ...BAD_PORT)).toMatchObject({
      stderr: PAST_THE_CHECK,
    })
    rmSync(join(project, 'resources.yaml'))
    expect(await runCli(project, 'serve', ...BAD_PORT)).toMatchObject({ stderr: PAST_THE_CHECK })
  })
})
