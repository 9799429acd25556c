/**
 * Issue 16: `npm install git+…` builds dist/ through `prepare` (npm installs a git
 * dependency's devDependencies, TypeScript among them, to run it), so the bin of
 * a package installed from a git URL works. The URL is a `git+file://` one of a
 * temporary repository holding a copy of this checkout.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { copyCheckout } from '../support/copy-checkout.js'
import { expectSuccess, runCommand } from '../support/run-command.js'

const INSTALL_TIMEOUT_MS = 300_000

describe('restmint installed from a git URL', () => {
  const { installEnv } = inject('packedPackage')
  let checkout = ''
  let project = ''

  beforeAll(async () => {
    checkout = await copyCheckout()
    project = await mkdtemp(join(tmpdir(), 'restmint-git-consumer-'))
    const git = (...args: string[]) => runCommand('git', args, checkout, { timeout: 60_000 })
    expectSuccess(await git('init', '--quiet'), 'git init')
    expectSuccess(await git('add', '--all'), 'git add')
    const identity = ['-c', 'user.name=restmint test', '-c', 'user.email=test@restmint.invalid']
    expectSuccess(await git(...identity, 'commit', '--quiet', '--message', 'restmint'), 'git commit')
    await writeFile(
      join(project, 'package.json'),
      `${JSON.stringify(
        {
          name: 'restmint-git-consumer',
          version: '1.0.0',
          private: true,
          type: 'module',
          allowScripts: { 'better-sqlite3': true, esbuild: true, restmint: true },
        },
        null,
        2,
      )}\n`,
    )
    const url = `git+${pathToFileURL(checkout).href}`
    const install = await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', url], project, {
      timeout: INSTALL_TIMEOUT_MS,
      env: installEnv,
    })
    expectSuccess(install, `npm install ${url}`)
  }, INSTALL_TIMEOUT_MS)

  afterAll(async () => {
    for (const dir of [project, checkout === '' ? '' : dirname(checkout)]) {
      if (dir !== '') await rm(dir, { recursive: true, force: true })
    }
  })

  it('runs `npx restmint --help` from the dist/ that prepare built', async () => {
    const installed = join(project, 'node_modules/restmint')
    expect(existsSync(join(installed, 'dist/generator/cli/main.js'))).toBe(true)
    expect(existsSync(join(installed, 'dist/.tsbuildinfo')), 'the build info is not packed').toBe(false)
    const help = await runCommand('npx', ['--no', '--', 'restmint', '--help'], project, { timeout: 60_000 })
    expectSuccess(help, 'npx restmint --help')
    expect(help.stdout).toContain('Usage: restmint [options] [command]')
  })

  it('`npx restmint init` without --from depends on the git URL restmint was installed from', async () => {
    const init = await runCommand('npx', ['--no', '--', 'restmint', 'init', 'api'], project, { timeout: 60_000 })
    expectSuccess(init, 'npx restmint init api')
    const written = JSON.parse(await readFile(join(project, 'api/package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    const consumer = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(consumer.dependencies.restmint).toMatch(/^git\+file:/)
    expect(written.dependencies.restmint).toBe(consumer.dependencies.restmint)
  })
})
