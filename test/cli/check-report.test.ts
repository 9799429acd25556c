import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_LINE_LENGTH } from '../../generator/cli/diff-file.js'
import { REPO } from '../support/copy-checkout.js'
import { runCli, type CliRun } from '../support/run-cli.js'

/** The example project's files `check` reads. */
const PROJECT_FILES = ['resources.yaml', 'src', 'generated', 'migrations', 'published']

describe('restmint check on the example after adding one field and one resource', () => {
  const project = mkdtempSync(join(tmpdir(), 'restmint-check-report-'))
  afterAll(() => rmSync(project, { recursive: true, force: true }))
  let summary: CliRun
  let full: CliRun

  beforeAll(async () => {
    for (const path of PROJECT_FILES) cpSync(join(REPO, path), join(project, path), { recursive: true })
    const manifest = readFileSync(join(project, 'resources.yaml'), 'utf8')
      .replace('      in_stock: { type: boolean, default: true }\n', '$&      sku: { type: string }\n')
      .replace('\nresources:\n', '$&  labels:\n    fields:\n      text: { type: string, required: true }\n')
    writeFileSync(join(project, 'resources.yaml'), manifest)
    ;[summary, full] = [await runCli(project, 'check'), await runCli(project, 'check', '--diff')]
  }, 60_000)

  it('prints one line per stale file, the other findings and their fixes: at most 40 lines, on one stream', () => {
    expect(summary).toMatchObject({ exitCode: 1, stderr: '' })
    const lines = summary.stdout.trimEnd().split('\n')
    expect(lines.length, summary.stdout).toBeLessThanOrEqual(40)
    expect(lines).toContain('missing: generated/v2/routes/labels.ts (+31 −0 lines)')
    expect(lines).toContain('changed: generated/v2/types/products.ts (+3 −0 lines)')
    expect(summary.stdout).toContain('Fix: restmint generate --manifest resources.yaml --out generated')
    expect(summary.stdout).toMatch(/v2 has additive changes only \(.*\); run `restmint publish v2`/)
    expect(summary.stdout).toMatch(
      /storage model differs .*: create table labels; products: add sku; run `restmint migrate create/,
    )
    expect(summary.stdout).not.toContain('@@')
  })

  it('prints the diffs with --diff, cutting long lines', () => {
    expect(full).toMatchObject({ exitCode: 1, stderr: '' })
    expect(full.stdout).toContain('--- a/generated/v2/types/products.ts\n+++ b/generated/v2/types/products.ts\n')
    expect(full.stdout).toMatch(/^\+.*sku/m)
    expect(full.stdout).toMatch(/^\+export const createBody = .* … \(\d+ more characters\)$/m)
    const diffLines = full.stdout.split('\n').filter((line) => /^[-+ ]/.test(line))
    for (const line of diffLines)
      expect(line.replace(/ … \(\d+ more characters\)$/, '').length).toBeLessThanOrEqual(MAX_LINE_LENGTH)
  })
})
