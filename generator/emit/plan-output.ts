import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { findEscapingSymlinks, type SymlinkEscape } from './find-escaping-symlinks.js'
import { GENERATED_MARK } from './do-not-edit-notice.js'
import { OUTPUT_INDEX, readOutputIndex } from './output-index.js'
import { findLeftovers, findMovedAsideOutput, type RunDirectory } from './output-staging.js'

export interface OutputPlan {
  /** Files to write: missing, or with other contents. */
  readonly changed: ReadonlyMap<string, string>
  readonly missing: readonly string[]
  readonly unchanged: readonly string[]
  /** Generated earlier (listed in the index), no longer generated. */
  readonly stale: readonly string[]
  /** The files the existing output's index says restmint wrote. */
  readonly owned: ReadonlySet<string>
  /** Paths restmint must write that hold a file restmint did not write. */
  readonly conflicts: readonly string[]
  /** Current contents of changed files, for diffs. */
  readonly previous: ReadonlyMap<string, string>
  /** Where the whole old output is when a `generate` was killed after moving it aside; null when the output stands. */
  readonly movedAside: string | null
  /** What killed `generate` runs left beside the output directory. */
  readonly leftovers: readonly RunDirectory[]
  /** Symlinks that writing or removing any of the above would go through and that lead out of the directory. */
  readonly escapes: readonly SymlinkEscape[]
}

/**
 * Compares rendered files with an output directory. `generate` applies the
 * plan and `check` reports it: both go through here, so they cannot disagree.
 */
export function planOutput(outDir: string, files: ReadonlyMap<string, string>): OutputPlan {
  const owned = new Set(readOutputIndex(outDir))
  const changed = new Map<string, string>()
  const previous = new Map<string, string>()
  const missing: string[] = []
  const unchanged: string[] = []
  const conflicts: string[] = []
  for (const [path, contents] of files) {
    const target = join(outDir, path)
    if (!existsSync(target)) {
      missing.push(path)
      changed.set(path, contents)
      continue
    }
    const current = readFileSync(target, 'utf8')
    if (current === contents) {
      unchanged.push(path)
      continue
    }
    if (!owned.has(path) && !current.includes(GENERATED_MARK)) conflicts.push(path)
    changed.set(path, contents)
    previous.set(path, current)
  }
  const stale = [...owned].filter((path) => !files.has(path) && existsSync(join(outDir, path)))
  const leftovers = findLeftovers(outDir)
  const movedAside = findMovedAsideOutput(outDir, leftovers, existsSync(outDir))
  const escapes = findEscapingSymlinks(outDir, [...changed.keys(), ...stale, OUTPUT_INDEX])
  return { changed, missing, unchanged, stale, owned, conflicts, previous, movedAside, leftovers, escapes }
}
