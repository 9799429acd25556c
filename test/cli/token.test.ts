/**
 * Issue 10, DX: `restmint serve` without the secret variable set keeps a
 * development secret in data/ (mode 0600, reused on the next start) and says
 * so; `restmint token` mints tokens the server accepts, and refuses schemes
 * it cannot sign for. The API is test/fixtures/auth-api.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { spawnCli } from '../support/spawn-cli.js'

const project = mkdtempSync(join(tmpdir(), 'restmint-token-'))
cpSync(join(import.meta.dirname, '..', 'fixtures', 'auth-api'), project, { recursive: true })
afterAll(() => rmSync(project, { recursive: true, force: true }))

/** Serves the project once, hands `use` its address and what it printed, then stops it. */
async function whileServing(use: (origin: string, stdout: string) => Promise<void>): Promise<void> {
  const cli = spawnCli(project, ['serve', '--db', 'sqlite::memory:', '--port', '0'])
  try {
    const stdout = await cli.waitForStdout(/development only: AUTH_TEST_JWT_SECRET.*\n/)
    await use(/serving generated\/ at (http:\/\/[^ ]+) /.exec(stdout)![1]!, stdout)
  } finally {
    expect((await cli.stop()).code).toBe(0)
  }
}

const token = async (...args: string[]) => runCli(project, 'token', ...args)

describe('development tokens', () => {
  it('serve keeps a development secret it reuses, and tokens from restmint token are accepted', async () => {
    let secret = ''
    await whileServing(async (origin, stdout) => {
      expect(stdout).toContain('scheme "user" verifies with a development secret kept in data/development-secrets.json')
      expect(stdout).toContain('npx restmint token --scheme user --sub alice')
      const file = join(project, 'data', 'development-secrets.json')
      expect(statSync(file).mode & 0o777).toBe(0o600)
      secret = readFileSync(file, 'utf8')
      const minted = await token('--scheme', 'user', '--sub', 'alice', '--scope', 'posts:write')
      expect(minted.exitCode, minted.stderr).toBe(0)
      const created = await fetch(`${origin}/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${minted.stdout.trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'minted' }),
      })
      expect(created.status).toBe(201)
      expect(((await created.json()) as { data: { owner_sub: string } }).data.owner_sub).toBe('alice')
    })
    await whileServing(async (origin) => {
      expect(readFileSync(join(project, 'data', 'development-secrets.json'), 'utf8')).toBe(secret)
      const minted = await token('--scheme', 'user', '--sub', 'bob', '--ttl', '60')
      const listed = await fetch(`${origin}/v1/tags`, { headers: { authorization: `Bearer ${minted.stdout.trim()}` } })
      expect(listed.status).toBe(200)
    })
  })

  it.each([
    [['--scheme', 'partner'], /scheme "partner" verifies tokens with the keys of http:\/\/127\.0\.0\.1:9\/jwks\.json/],
    [['--scheme', 'machine'], /has an api_key scheme, not a jwt one, named "machine"; its jwt schemes: user, partner/],
    [['--scheme', 'users'], /has no scheme "users"; its jwt schemes: user, partner/],
    [['--scheme', 'user', '--ttl', '1h'], /--ttl must be a whole number of seconds, not "1h"/],
    [
      ['--scheme', 'user', '--ttl', '86401'],
      /--ttl 86401 is longer than auth scheme "user" lets a token live \(86400 s\)/,
    ],
  ])('refuses %j, saying why', async (args, message) => {
    const run = await token(...args, '--sub', 'alice')
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(message)
  })

  it('refuses an empty --sub: the server refuses a token naming nobody', async () => {
    const run = await token('--scheme', 'user', '--sub', '')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toMatch(/--sub must name the caller/)
  })
})
