import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'

/**
 * Issue 16, section 3: `restmint check` compares the app module's
 * `operations` with the manifest's declared operations, with positions, and
 * `validate` refuses a verb in an operation's path like in a resource's.
 */
const MANIFEST = `restmint: 1
service: { title: Check API }
app: ./src/app.ts
versions:
  v1: {}
resources:
  orders:
    fields:
      status: { type: string }
    operations:
      cancellations: { method: POST, body: { reason: { type: string } }, responds: orders }
  reports:
    collection_only: true
    operations:
      sales-by-month: { method: GET, query: { year: { type: integer, required: true } }, responds: { fields: { total: { type: number } }, many: true } }
`

const moduleWith = (operations: string) => `import { defineApp } from 'restmint/runtime'
export default defineApp({ operations: ${operations} } as never)
`
const BOTH = `'orders.cancellations.create': async () => ({ id: 1 }), 'reports.sales-by-month.list': async () => []`

describe('restmint check and the operations of the app module', () => {
  let directory: string
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'restmint-operations-check-'))
    mkdirSync(join(directory, 'src'))
    writeFileSync(join(directory, 'resources.yaml'), MANIFEST)
    writeFileSync(join(directory, 'src/app.ts'), moduleWith(`{ ${BOTH} }`))
    expect((await runCli(directory, 'generate')).exitCode).toBe(0)
  })
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  const checkWith = (operations: string) => {
    writeFileSync(join(directory, 'src/app.ts'), moduleWith(operations))
    return runCli(directory, 'check')
  }

  it('passes when the module has a handler for exactly each declared operation', async () => {
    const run = await checkWith(`{ ${BOTH} }`)
    expect(run.stdout + run.stderr).not.toContain('OPERATION_')
    expect(run.exitCode).toBe(0)
  })

  it('fails on a declared operation without a handler, at the operation', async () => {
    const run = await checkWith(`{ 'orders.cancellations.create': async () => ({ id: 1 }) }`)
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain(
      `resources.yaml:15:7: error OPERATION_HANDLER_MISSING: operation "sales-by-month" of resource "reports" has no handler: export operations['reports.sales-by-month.list'] from the app module, or remove the operation from the manifest`,
    )
  })

  it('fails on a handler no operation declares (a POST named list, here), at app:', async () => {
    const run = await checkWith(`{ ${BOTH}, 'orders.cancellations.list': async () => [] }`)
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain(
      `resources.yaml:3:6: error OPERATION_HANDLER_UNDECLARED: the app module exports operations['orders.cancellations.list'], which the manifest does not declare`,
    )
  })

  it('fails validation on a verb in an operation path, with the naming rule of resources', async () => {
    writeFileSync(
      join(directory, 'resources.yaml'),
      MANIFEST.replace('cancellations: { method: POST', 'cancel: { method: POST'),
    )
    const run = await runCli(directory, 'check')
    writeFileSync(join(directory, 'resources.yaml'), MANIFEST)
    expect(run.exitCode).toBe(1)
    expect(run.stdout + run.stderr).toContain(
      'resources.yaml:11:7: error NAMING_NO_VERBS: operation "cancel" is the verb "cancel"',
    )
  })
})
