/**
 * Issue 16: restmint as a workspace of a monorepo, a dependency of another
 * workspace (`"restmint": "*"`): the root `npm install` links it and runs its
 * `prepare`, which builds dist/, so the bin works in the dependent workspace.
 */
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { copyCheckout } from '../support/copy-checkout.js'
import { expectSuccess, runCommand } from '../support/run-command.js'

const INSTALL_TIMEOUT_MS = 400_000

const packageJson = (value: object) => `${JSON.stringify(value, null, 2)}\n`

describe('restmint as a workspace dependency', () => {
  const { installEnv } = inject('packedPackage')
  let checkout = ''
  let root = ''

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'restmint-monorepo-'))
    checkout = await copyCheckout()
    // The checkout as a clone has it, without the link to this checkout's node_modules.
    await cp(checkout, join(root, 'restmint'), { recursive: true, filter: (path) => !path.endsWith('/node_modules') })
    await mkdir(join(root, 'api'))
    await writeFile(
      join(root, 'package.json'),
      packageJson({
        name: 'monorepo',
        private: true,
        workspaces: ['restmint', 'api'],
        allowScripts: { 'better-sqlite3': true, esbuild: true, restmint: true },
      }),
    )
    await writeFile(
      join(root, 'api/package.json'),
      packageJson({ name: 'api', version: '1.0.0', private: true, type: 'module', dependencies: { restmint: '*' } }),
    )
    const install = await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], root, {
      timeout: INSTALL_TIMEOUT_MS,
      env: installEnv,
    })
    expectSuccess(install, 'npm install (workspaces)')
  }, INSTALL_TIMEOUT_MS)

  afterAll(async () => {
    for (const dir of [root, checkout === '' ? '' : dirname(checkout)]) {
      if (dir !== '') await rm(dir, { recursive: true, force: true })
    }
  })

  it('runs `npx restmint --help` in the dependent workspace, from the dist/ that prepare built', async () => {
    expect(existsSync(join(root, 'restmint/dist/generator/cli/main.js'))).toBe(true)
    const help = await runCommand('npx', ['--no', '--', 'restmint', '--help'], join(root, 'api'), { timeout: 60_000 })
    expectSuccess(help, 'npx restmint --help')
    expect(help.stdout).toContain('Usage: restmint [options] [command]')
  })
})
