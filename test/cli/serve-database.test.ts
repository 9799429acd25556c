/**
 * `restmint serve` and the database setting: credentials never printed
 * (issue 6, item 9), the PostgreSQL schema chosen from the CLI and `--version`
 * (item 24).
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { spawnCli } from '../support/spawn-cli.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** What `serve` serves: the shop API fixture rather than the example, which people edit. */
const SHOP_API = resolve(REPO, 'test/fixtures/shop-api')
const AUTH_API = resolve(REPO, 'test/fixtures/auth-api')
const SECRET = 'n0t-f0r-y0ur-eyes'
// In this project's range, with nothing listening: connecting is refused at once.
const CLOSED_PORT = 44099

/** The test server's URL with a password; trust auth accepts any, a real one is kept (and must not show either). */
function postgresUrlWithPassword(): { url: string; secret: string } {
  const url = new URL(POSTGRES_URL)
  if (url.password === '') url.password = SECRET
  return { url: url.href, secret: decodeURIComponent(url.password) }
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client(POSTGRES_URL)
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await client.end()
  }
}

describe.concurrent('restmint serve explains what it cannot open or listen on, in one line', () => {
  it.skipIf(POSTGRES_OFF)('a PostgreSQL server refusing TLS when the URL asks for it', async () => {
    const { url, secret } = postgresUrlWithPassword()
    const withTls = new URL(url)
    withTls.searchParams.set('sslmode', 'verify-full')
    const run = await runCli(SHOP_API, 'serve', '--db', withTls.href, '--port', '0')
    expect(run.exitCode, run.stderr).toBe(1)
    expect(run.stderr).toMatch(
      /^restmint: cannot open the database "[^"]*\*\*\*[^"]*": The server does not support SSL connections\n$/,
    )
    expect(run.stderr).not.toContain(secret)
  })

  it.each(['10.255.255.1', 'nonexistent.invalid'])('a --host this machine has no interface for: %s', async (host) => {
    const run = await runCli(SHOP_API, 'serve', '--db', 'sqlite::memory:', '--host', host, '--port', '0')
    expect(run.exitCode, run.stderr).toBe(1)
    expect(run.stderr).toMatch(
      new RegExp(`^restmint: cannot listen on ${host.replaceAll('.', '\\.')}: .*pass another with --host\\n$`),
    )
  })
})

describe('restmint serve explains settings that cannot work, in one line', () => {
  it('a keys_env variable that is not JSON, naming it', async () => {
    const previous = process.env.AUTH_TEST_API_KEYS
    process.env.AUTH_TEST_API_KEYS = '{not json'
    try {
      const run = await runCli(AUTH_API, 'serve', '--db', 'sqlite::memory:', '--port', '0')
      expect(run.exitCode, run.stderr).toBe(1)
      expect(run.stderr).toMatch(/^restmint: auth scheme "machine": AUTH_TEST_API_KEYS is not JSON; set it to .*\n$/)
    } finally {
      if (previous === undefined) delete process.env.AUTH_TEST_API_KEYS
      else process.env.AUTH_TEST_API_KEYS = previous
    }
  })
})

describe.concurrent('restmint serve never prints a database password', () => {
  const unreachable: [form: string, db: string][] = [
    ['user:password in the URL', `postgres://ada:${SECRET}@127.0.0.1:${CLOSED_PORT}/shop`],
    ['password in the query string', `postgres://ada@127.0.0.1:${CLOSED_PORT}/shop?sslmode=disable&password=${SECRET}`],
    ['a keyword/value connection string', `host=127.0.0.1 port=${CLOSED_PORT} password=${SECRET}`],
  ]
  it.each(unreachable)('when the database cannot be opened: %s', async (_form, db) => {
    const run = await runCli(SHOP_API, 'serve', '--db', db, '--port', '0')
    expect(run.exitCode, run.stderr).toBe(1)
    expect(run.stderr).toMatch(/^restmint: (cannot open the database|Unsupported database URL) "[^"]*\*\*\*/)
    expect(run.stdout + run.stderr).not.toContain(SECRET)
  })

  it.skipIf(POSTGRES_OFF)('when serving: the "serving" line shows the URL without its password', async () => {
    const { url, secret } = postgresUrlWithPassword()
    const schema = `restmint_test_${randomBytes(6).toString('hex')}`
    const cli = spawnCli(SHOP_API, ['serve', '--db', url, '--schema', schema, '--port', '0'])
    try {
      const stdout = await cli.waitForStdout(/serving .*\n/)
      expect(stdout).toMatch(new RegExp(`database postgres://[^@\\s]*:\\*\\*\\*@[^,]+, schema ${schema}\\n`))
    } finally {
      const ended = await cli.stop()
      await dropSchema(schema)
      const { stdout, stderr } = cli.output()
      expect(stdout + stderr).not.toContain(secret)
      expect(ended, stderr).toEqual({ code: 0, signal: null })
    }
  })
})

describe.skipIf(POSTGRES_OFF)('restmint serve --schema', { concurrent: true }, () => {
  it('keeps the tables in the schema named by DATABASE_SCHEMA (or --schema)', async () => {
    const schema = `restmint_test_${randomBytes(6).toString('hex')}`
    const cli = spawnCli(SHOP_API, ['serve', '--db', POSTGRES_URL, '--port', '0'], { DATABASE_SCHEMA: schema })
    try {
      const stdout = await cli.waitForStdout(/serving .*\n/)
      const base = /at (http:\/\/\S+) /.exec(stdout)![1]!
      const created = await fetch(`${base}/v1/authors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com' }),
      })
      expect(created.status).toBe(201)
      const client = new pg.Client(POSTGRES_URL)
      await client.connect()
      try {
        const rows = await client.query(`SELECT name FROM "${schema}".authors`)
        expect(rows.rows).toEqual([{ name: 'Ada Lovelace' }])
      } finally {
        await client.end()
      }
    } finally {
      const ended = await cli.stop()
      await dropSchema(schema)
      expect(ended, cli.output().stderr).toEqual({ code: 0, signal: null })
    }
  })

  it('refuses an empty schema name, saying what to pass', async () => {
    const run = await runCli(SHOP_API, 'serve', '--db', POSTGRES_URL, '--schema', '', '--port', '0')
    expect(run).toMatchObject({
      exitCode: 1,
      stderr: 'restmint: --schema must name a PostgreSQL schema, e.g. --schema public\n',
    })
  })
})

describe('restmint --version', () => {
  it("prints the package's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(resolve(REPO, 'package.json'), 'utf8')) as { version: string }
    for (const flag of ['--version', '-V']) {
      expect(await runCli(REPO, flag)).toEqual({ exitCode: 0, stdout: `${version}\n`, stderr: '' })
    }
  })
})
