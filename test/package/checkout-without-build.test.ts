/**
 * Issue 6, item 20: right after `npm install` in a fresh clone, `dist/` does
 * not exist (npm install does not build), and every command must work anyway.
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyCheckout } from '../support/copy-checkout.js'
import { expectSuccess, runCommand } from '../support/run-command.js'

describe('a fresh checkout, before any build', () => {
  let checkout = ''

  beforeAll(async () => {
    checkout = await copyCheckout()
  })
  afterAll(async () => {
    if (checkout !== '') await rm(dirname(checkout), { recursive: true, force: true })
  })

  it('runs `npx restmint --help` and `npx restmint check` from the sources', async () => {
    expect(existsSync(join(checkout, 'dist'))).toBe(false)
    const [help, check] = await Promise.all([
      runCommand('npx', ['--no', '--', 'restmint', '--help'], checkout, { timeout: 60_000 }),
      runCommand('npx', ['--no', '--', 'restmint', 'check'], checkout, { timeout: 60_000 }),
    ])
    expectSuccess(help, 'npx restmint --help')
    expect(help.stdout).toContain('Usage: restmint [options] [command]')
    expectSuccess(check, 'npx restmint check')
    expect(check.stdout).toContain('generated/ is up to date with resources.yaml')
    expect(existsSync(join(checkout, 'dist')), 'running the CLI does not build dist/').toBe(false)
  }, 60_000)
})
