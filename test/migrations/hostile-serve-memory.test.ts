/**
 * `serve --db sqlite::memory:`, the throwaway database, in a project with
 * migrations: the database is new and empty at every start, so nothing can
 * have been applied to it and no other process could apply anything; serve
 * starts on it as it did before the project had migrations.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { allTables } from '../../generated/schema.js'
import { REPO } from '../support/copy-checkout.js'
import { spawnCli } from '../support/spawn-cli.js'
import { writeInitialMigration } from './migration-fixtures.js'

let directory: string
afterEach(() => rmSync(directory, { recursive: true, force: true }))

it('serve --db sqlite::memory: starts in a project with migrations, without --migrate', async () => {
  directory = mkdtempSync(join(tmpdir(), 'restmint-memory-serve-'))
  const migrations = join(directory, 'migrations')
  writeInitialMigration(migrations, allTables)
  const serve = spawnCli(REPO, ['serve', '--db', 'sqlite::memory:', '--migrations', migrations, '--port', '0'])
  try {
    const stdout = await serve.waitForStdout(/serving .*\n/)
    const base = /at (http:\/\/\S+) /.exec(stdout)![1]!
    expect((await fetch(`${base}/v1/authors`)).status).toBe(200)
  } finally {
    expect(await serve.stop(), serve.output().stderr).toEqual({ code: 0, signal: null })
  }
})
