import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './support/run-cli.js'

/**
 * Fixture APIs, one folder each under test/fixtures: a resources.yaml and the
 * generated/ tree restmint writes from it, committed so that runtime tests
 * import a server of their own without generating one at test time (and
 * without depending on the example, which people edit). Each must be what
 * restmint generates today, as `restmint check` says; `npm run test:update`
 * regenerates them.
 */
const fixturesDirectory = join(import.meta.dirname, 'fixtures')
const update = process.env.UPDATE_GOLDEN === '1'

describe('fixture APIs', () => {
  it.each(readdirSync(fixturesDirectory).sort())('%s/generated is up to date with its manifest', async (name) => {
    const command = update ? 'generate' : 'check'
    const run = await runCli(
      join(fixturesDirectory, name),
      command,
      '--manifest',
      'resources.yaml',
      '--out',
      'generated',
    )
    expect(run.exitCode, `${run.stdout}${run.stderr}run npm run test:update`).toBe(0)
  })
})
