/**
 * Issue 16, section 1: the README's "Use restmint in your own project" commands,
 * run as written in a temporary directory against the tarball the global setup
 * packed (its `npm pack` line is that setup): `restmint init` through npx from the
 * tarball, `npm install`, `npm test` and `npm run dev` up to its first 200; then
 * `npm run check` (restmint check and tsc over the app module and the generated
 * types) passes on what dev wrote.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { REPO } from '../support/copy-checkout.js'
import { cleanEnv, expectSuccess, runCommand } from '../support/run-command.js'

const INSTALL_TIMEOUT_MS = 300_000

/** The first sh block of the README's "Use restmint in your own project", one command a line, comments cut. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Use restmint in your own project'))
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '')
}

describe("the README's commands for a project of one's own", () => {
  const { tarball, installEnv } = inject('packedPackage')
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }
  const readmeTarball = `/tmp/restmint-${version}.tgz`
  let cwd = ''
  let project = ''

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'restmint-init-'))
    project = join(cwd, 'my-api')
  })
  afterAll(async () => {
    if (cwd !== '') await rm(cwd, { recursive: true, force: true })
  })

  it('are the commands this test runs', () => {
    expect(readmeCommands()).toEqual([
      'npm pack --pack-destination /tmp',
      `npx --yes --package ${readmeTarball} restmint init my-api --from ${readmeTarball}`,
      'cd my-api',
      'npm install',
      'npm run dev',
      'npm test',
    ])
  })

  it(
    'init, install, test and dev: the starter API answers 200, and check passes on what dev wrote',
    async () => {
      const run = (command: string, args: string[], dir: string, env: NodeJS.ProcessEnv = {}) =>
        runCommand(command, args, dir, { timeout: INSTALL_TIMEOUT_MS, env: { ...installEnv, ...env } })
      const init = await run(
        'npx',
        ['--yes', '--package', tarball, 'restmint', 'init', 'my-api', '--from', tarball],
        cwd,
      )
      expectSuccess(init, 'restmint init')
      expect(init.stdout).toContain(
        `Created a restmint project in my-api/ (restmint file:${relative(project, tarball)})`,
      )
      // --prefer-offline: the dependencies come from the npm cache this checkout's install filled.
      expectSuccess(
        await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], project),
        'npm install',
      )
      expectSuccess(await run('npm', ['test'], project), 'npm test')

      // npm run dev in a process group of its own, so that stopping it stops the server it started.
      const dev = spawn('npm', ['run', 'dev'], {
        cwd: project,
        env: cleanEnv({ PORT: '0' }),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
      let stdout = ''
      let stderr = ''
      dev.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
      dev.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
      const closed = new Promise((done) => dev.once('close', done))
      try {
        const deadline = Date.now() + 60_000
        let status = 0
        while (status !== 200) {
          if (dev.exitCode !== null) throw new Error(`npm run dev exited\n${stdout}\n${stderr}`)
          if (Date.now() > deadline) throw new Error(`no 200 within 60 s\n${stdout}\n${stderr}`)
          const base = /serving \S+ at (http:\/\/\S+)/.exec(stdout)?.[1]
          status =
            base === undefined
              ? 0
              : await fetch(`${base}/v1/authors`).then(
                  (response) => response.status,
                  () => 0,
                )
          if (status !== 200) await new Promise((next) => setTimeout(next, 100))
        }
        expect(stdout).toContain('Created migrations/0001_init/')
      } finally {
        process.kill(-dev.pid!, 'SIGTERM')
        await closed
      }
      expectSuccess(await run('npm', ['run', 'check'], project), 'npm run check')
    },
    INSTALL_TIMEOUT_MS,
  )
})
