import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'

/** Issue 16: `restmint check` compares the app module's hooks with the manifest's `hooks:` lists, with positions. */
const MANIFEST = `restmint: 1
service: { title: Check API }
app: ./src/app.ts
versions:
  v1: {}
resources:
  orders:
    hooks: [beforeCreate, afterCreate]
    fields:
      customer: { type: string, required: true }
  notes:
    fields:
      text: { type: string }
`

const moduleWith = (hooks: string) => `import { defineApp } from 'restmint/runtime'
export default defineApp({ hooks: ${hooks} })
`

describe('restmint check and the app module', () => {
  let directory: string
  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'restmint-app-check-'))
    mkdirSync(join(directory, 'src'))
    writeFileSync(join(directory, 'resources.yaml'), MANIFEST)
    writeFileSync(
      join(directory, 'src/app.ts'),
      moduleWith('{ orders: { beforeCreate: async () => undefined, afterCreate: async () => {} } }'),
    )
    expect((await runCli(directory, 'generate')).exitCode).toBe(0)
  })
  afterEach(() => rmSync(directory, { recursive: true, force: true }))

  const check = () => runCli(directory, 'check')

  it('passes when the module exports exactly the declared hooks', async () => {
    const run = await check()
    expect(run.stdout + run.stderr).not.toContain('HOOK_')
    expect(run.exitCode).toBe(0)
  })

  it('fails on a declared hook the module does not export, at its list entry', async () => {
    writeFileSync(join(directory, 'src/app.ts'), moduleWith('{ orders: { beforeCreate: async () => undefined } }'))
    const run = await check()
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain(
      'resources.yaml:8:27: error HOOK_NOT_EXPORTED: resource "orders" lists hook afterCreate, which the app module does not export',
    )
  })

  it('fails on an exported hook the manifest does not declare, and on hooks of an unknown resource', async () => {
    writeFileSync(
      join(directory, 'src/app.ts'),
      moduleWith(
        '{ orders: { beforeCreate: async () => undefined, afterCreate: async () => {}, beforeDelete: async () => {} },' +
          ' notes: { afterCommit: async () => {} }, order: { afterCreate: async () => {} } }',
      ),
    )
    const run = await check()
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain(
      'resources.yaml:8:5: error HOOK_NOT_DECLARED: the app module exports hooks.orders.beforeDelete, which resource "orders" does not list',
    )
    expect(run.stdout).toContain(
      'resources.yaml:11:3: error HOOK_NOT_DECLARED: the app module exports hooks.notes.afterCommit',
    )
    expect(run.stdout).toContain(
      'resources.yaml:3:6: error HOOK_NOT_DECLARED: the app module exports hooks for "order", which is not a resource',
    )
  })

  it('fails on a missing module file and on a module that does not load', async () => {
    writeFileSync(join(directory, 'src/app.ts'), 'export default 42\n')
    let run = await check()
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain('resources.yaml:3:6: error APP_MODULE_INVALID')
    rmSync(join(directory, 'src/app.ts'))
    run = await check()
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toContain('resources.yaml:3:6: error APP_MODULE_MISSING: app module ./src/app.ts not found')
  })

  it('validate refuses hooks without an app module', async () => {
    writeFileSync(join(directory, 'resources.yaml'), MANIFEST.replace('app: ./src/app.ts\n', ''))
    const run = await runCli(directory, 'validate')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toContain('resources.yaml:7:5: error HOOKS_WITHOUT_APP')
  })
})
