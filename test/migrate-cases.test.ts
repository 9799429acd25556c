import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MIGRATION_SQL_FILES, SNAPSHOT_FILE } from '../runtime/migrations/migration-files.js'
import { storageOfManifest } from './migrate/storage-of.js'
import { readTree } from './support/read-tree.js'
import { runCli } from './support/run-cli.js'

/**
 * `migrate create` cases, one folder each under test/migrate-cases:
 * - before.yaml (optional): the manifest the existing migrations lead to (written as
 *   migrations/0001_before with its snapshot, so only the new migration is rendered);
 *   without it the project has no migration yet, and the case is its first;
 * - after.yaml: the edited manifest;
 * - args (optional): more arguments for `migrate create`, one per line;
 * - stderr.txt (the create must fail with exactly that output and write nothing)
 *   or expected/ (the files of the migration it writes, under its directory name).
 * `npm run test:update` rewrites stderr.txt or expected/ (stderr.txt for names ending in -bad).
 */
const casesDirectory = join(import.meta.dirname, 'migrate-cases')
const update = process.env.UPDATE_GOLDEN === '1'
const scratch = mkdtempSync(join(tmpdir(), 'restmint-migrate-cases-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('migrate create cases', () => {
  for (const name of readdirSync(casesDirectory).sort()) {
    const caseDirectory = join(casesDirectory, name)
    const stderrFile = join(caseDirectory, 'stderr.txt')
    const expectedDirectory = join(caseDirectory, 'expected')
    const expectsFailure = existsSync(stderrFile) || (update && name.endsWith('-bad'))

    it(name, async () => {
      const project = join(scratch, name)
      mkdirSync(project)
      const beforeFile = join(caseDirectory, 'before.yaml')
      if (existsSync(beforeFile)) {
        const existing = join(project, 'migrations', '0001_before')
        mkdirSync(existing, { recursive: true })
        const before = storageOfManifest(readFileSync(beforeFile, 'utf8'))
        writeFileSync(join(existing, SNAPSHOT_FILE), `${JSON.stringify(before.snapshot, null, 2)}\n`)
        for (const file of Object.values(MIGRATION_SQL_FILES)) writeFileSync(join(existing, file), '')
      }
      cpSync(join(caseDirectory, 'after.yaml'), join(project, 'resources.yaml'))
      const argsFile = join(caseDirectory, 'args')
      const args = existsSync(argsFile)
        ? readFileSync(argsFile, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
        : []

      const run = await runCli(project, 'migrate', 'create', ...args)
      const written = readTree(join(project, 'migrations'))
      for (const path of written.keys()) if (path.startsWith('0001_before/')) written.delete(path)
      if (expectsFailure) {
        if (update) writeFileSync(stderrFile, run.stderr)
        expect(run.stderr).toBe(readFileSync(stderrFile, 'utf8'))
        expect(run.exitCode).toBe(1)
        expect([...written.keys()], 'a failed create writes nothing').toEqual([])
        return
      }
      expect(run.stderr).toBe('')
      expect(run.exitCode).toBe(0)
      if (update) {
        rmSync(expectedDirectory, { recursive: true, force: true })
        for (const [path, contents] of written) {
          mkdirSync(dirname(join(expectedDirectory, path)), { recursive: true })
          writeFileSync(join(expectedDirectory, path), contents)
        }
      }
      expect(Object.fromEntries(written)).toEqual(Object.fromEntries(readTree(expectedDirectory)))
    })
  }
})
