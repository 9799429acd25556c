import { mkdirSync, renameSync, rmSync, rmdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { OutputPlan } from './plan-output.js'

/**
 * Applies a plan. Every new file is first written next to its target under a
 * temporary name; only when all of them are on disk are they renamed into
 * place (each rename is atomic), so a failure while writing leaves the
 * previous output untouched, and no directory this run created is left
 * behind.
 */
export function writeOutput(outDir: string, plan: OutputPlan): void {
  const staged: [string, string][] = []
  const createdDirectories: string[] = []
  try {
    for (const [path, contents] of plan.changed) {
      const target = join(outDir, path)
      const temporary = `${target}.restmint-${process.pid}.tmp`
      // The topmost directory this call created, if any: everything in it is this run's.
      const created = mkdirSync(dirname(target), { recursive: true })
      if (created !== undefined) createdDirectories.push(created)
      writeFileSync(temporary, contents)
      staged.push([temporary, target])
    }
  } catch (error) {
    for (const [temporary] of staged) rmSync(temporary, { force: true })
    for (const directory of createdDirectories.reverse()) rmSync(directory, { recursive: true, force: true })
    throw error
  }
  for (const [temporary, target] of staged) renameSync(temporary, target)
  for (const path of plan.stale) {
    rmSync(join(outDir, path), { force: true })
    removeEmptyParents(outDir, dirname(path))
  }
}

function removeEmptyParents(outDir: string, directory: string): void {
  for (let current = directory; current !== '.' && current !== ''; current = dirname(current)) {
    const absolute = join(outDir, current)
    if (readdirSync(absolute).length > 0) return
    rmdirSync(absolute)
  }
}
