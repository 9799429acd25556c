import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readTree } from '../support/read-tree.js'
import { runCli } from '../support/run-cli.js'

const exampleManifest = join(import.meta.dirname, '..', 'cases', 'naming-plural-good', 'resources.yaml')

// Projects share a node_modules/ (so a render cache) under one root.
const root = mkdtempSync(join(tmpdir(), 'restmint-links-'))
mkdirSync(join(root, 'node_modules'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('restmint generate never writes through a symlink that leaves the output directory', () => {
  let project: string
  let outside: string
  beforeEach(async () => {
    project = mkdtempSync(join(root, 'project-'))
    outside = mkdtempSync(join(tmpdir(), 'restmint-outside-'))
    cpSync(exampleManifest, join(project, 'resources.yaml'))
    expect((await runCli(project, 'generate')).exitCode).toBe(0)
  })
  afterEach(() => {
    rmSync(project, { recursive: true, force: true })
    rmSync(outside, { recursive: true, force: true })
  })

  it('refuses a directory on the way that links outside, names it and where it points, and writes nothing', async () => {
    writeFileSync(join(outside, 'keep.txt'), 'not restmint’s')
    rmSync(join(project, 'generated', 'v1'), { recursive: true })
    symlinkSync(outside, join(project, 'generated', 'v1'))
    const run = await runCli(project, 'generate')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toBe(
      `restmint: refusing to write through symlinks that lead out of generated/: generated/v1 -> ${outside}. ` +
        'restmint writes only inside its output directory; replace each link with a real directory (or remove it), ' +
        'or choose another --out directory. Nothing was written.\n',
    )
    expect(readTree(outside)).toEqual(new Map([['keep.txt', 'not restmint’s']]))
    const check = await runCli(project, 'check')
    expect(check.exitCode).toBe(1)
    expect(check.stdout).toContain(`generated/v1 -> ${outside}`)
  })

  it('refuses a generated file that is a link to a file outside, and leaves that file alone', async () => {
    const target = join(outside, 'schema.ts')
    writeFileSync(target, 'precious')
    rmSync(join(project, 'generated', 'schema.ts'))
    symlinkSync(target, join(project, 'generated', 'schema.ts'))
    const run = await runCli(project, 'generate')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toContain(`generated/schema.ts -> ${target}`)
    expect(readFileSync(target, 'utf8')).toBe('precious')
  })

  it('neither removes a stale file through a link nor writes through a dangling one', async () => {
    mkdirSync(join(outside, 'routes'))
    writeFileSync(join(outside, 'routes', 'old.ts'), 'precious')
    symlinkSync(join(outside, 'routes'), join(project, 'generated', 'old'))
    const index = join(project, 'generated', '.restmint-files')
    writeFileSync(index, `${readFileSync(index, 'utf8')}old/old.ts\n`)
    rmSync(join(project, 'generated', 'v1'), { recursive: true })
    symlinkSync(join(outside, 'not-yet'), join(project, 'generated', 'v1'))
    const run = await runCli(project, 'generate')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toContain(
      `generated/v1 -> ${join(outside, 'not-yet')}, generated/old -> ${join(outside, 'routes')}.`,
    )
    expect(readTree(outside)).toEqual(new Map([['routes/old.ts', 'precious']]))
  })

  it('follows a link that stays inside the output directory', async () => {
    const before = readTree(join(project, 'generated'))
    cpSync(join(project, 'generated', 'v1'), join(project, 'generated', 'v1-real'), { recursive: true })
    rmSync(join(project, 'generated', 'v1'), { recursive: true })
    symlinkSync('v1-real', join(project, 'generated', 'v1'))
    const run = await runCli(project, 'generate')
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain(': 0 written,')
    expect(readTree(join(project, 'generated', 'v1-real'))).toEqual(
      new Map([...before].filter(([path]) => path.startsWith('v1/')).map(([path, text]) => [path.slice(3), text])),
    )
  })
})
