import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { readTree } from './support/read-tree.js'
import { runCli } from './support/run-cli.js'

/**
 * End-to-end cases, one folder each under test/cases: a resources.yaml plus
 * either stderr.txt (the manifest must be rejected with exactly that output
 * and nothing written) or expected/ (the generated files that are the point
 * of the case). expected/ always holds `.restmint-files`, which lists every
 * file generated, so the layout is checked whole; a case keeps only the other
 * files worth reading (the routes of a naming case, the whole tree of the
 * relations case). `npm run test:update` rewrites the files a case keeps
 * (every file, for a new case).
 */
const casesDirectory = join(import.meta.dirname, 'cases')
const update = process.env.UPDATE_GOLDEN === '1'

const INDEX = '.restmint-files'

/** The paths an output index lists, with the index itself, sorted. */
function listedFiles(index: string): string[] {
  const listed = index.split('\n').filter((line) => line !== '' && !line.startsWith('#'))
  return [...listed, INDEX].sort()
}

describe('end-to-end cases', () => {
  for (const name of readdirSync(casesDirectory).sort()) {
    const caseDirectory = join(casesDirectory, name)
    const stderrFile = join(caseDirectory, 'stderr.txt')
    const expectedDirectory = join(caseDirectory, 'expected')
    const expectsFailure = existsSync(stderrFile) || (update && name.endsWith('-bad'))

    it(name, async () => {
      // Beside expected/ (gitignored): a generated tree imports the case's app module by its path relative
      // to the tree, which then reads as from the case's own generated/, wherever the checkout is.
      const out = join(caseDirectory, 'tmp-generated')
      rmSync(out, { recursive: true, force: true })
      onTestFinished(() => rmSync(out, { recursive: true, force: true }))
      const run = await runCli(caseDirectory, 'generate', '--manifest', 'resources.yaml', '--out', out)
      if (expectsFailure) {
        if (update) writeFileSync(stderrFile, run.stderr)
        expect(run.stderr).toBe(readFileSync(stderrFile, 'utf8'))
        expect(run.exitCode).toBe(1)
        expect(existsSync(out), 'an invalid manifest must write nothing').toBe(false)
        return
      }
      expect(run.stderr).toBe('')
      expect(run.exitCode).toBe(0)
      const actual = readTree(out)
      const kept = existsSync(expectedDirectory) ? [...readTree(expectedDirectory).keys()] : [...actual.keys()]
      if (update) {
        rmSync(expectedDirectory, { recursive: true, force: true })
        for (const path of new Set([INDEX, ...kept])) {
          if (!actual.has(path)) continue
          mkdirSync(dirname(join(expectedDirectory, path)), { recursive: true })
          writeFileSync(join(expectedDirectory, path), actual.get(path)!)
        }
      }
      const expected = readTree(expectedDirectory)
      expect(expected.has(INDEX), `${name}/expected must hold ${INDEX}`).toBe(true)
      expect([...actual.keys()].sort()).toEqual(listedFiles(expected.get(INDEX)!))
      for (const [path, contents] of expected) expect(actual.get(path), path).toBe(contents)
    })
  }
})
