/**
 * Issue 6, item 24: every curl command in README.md runs as written (brackets
 * in a query string need `curl -g`, or curl reads them as a URL pattern and
 * fails) and answers 200 from the example API.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../../generated/server.js'

const README = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8')
const README_BASE = 'http://127.0.0.1:3000'

/** `curl …` lines of shell blocks, and inline code spans that are whole commands (with a URL). */
function curlCommands(markdown: string): string[] {
  const inBlocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((block) =>
    block[1]!.split('\n').filter((line) => line.startsWith('curl ')),
  )
  const inline = [...markdown.matchAll(/`(curl [^`]*https?:\/\/[^`]+)`/g)].map((span) => span[1]!)
  return [...new Set([...inBlocks, ...inline])]
}

/** Splits a command as sh would, for the quoting README uses (single and double quotes). */
function shellWords(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((word) => word[1] ?? word[2] ?? word[3]!)
}

describe('README curl commands', () => {
  let app: FastifyInstance | undefined
  let base = ''

  beforeAll(async () => {
    app = await buildServer({ db: 'sqlite::memory:', seed: true, docs: false })
    base = await app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await app?.close()
  })

  const commands = curlCommands(README)
  it('are there, one with brackets among them', () => {
    expect(commands.length).toBeGreaterThanOrEqual(2)
    expect(commands.some((command) => command.includes('['))).toBe(true)
  })

  it.each(commands)('%s', async (command) => {
    const [program, ...args] = shellWords(command).map((word) => word.replace(README_BASE, base))
    expect(program).toBe('curl')
    // Only where the body goes and what is printed are added; the command's own arguments are kept as written.
    const { stdout } = await promisify(execFile)('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', ...args])
    expect(stdout).toBe('200')
  })
})
