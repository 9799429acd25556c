import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { findEscapingSymlinks, type SymlinkEscape } from './find-escaping-symlinks.js'
import { OUTPUT_LOCK, findStaleLock } from './output-lock.js'
import { journalPaths, OUTPUT_JOURNAL, readJournal, type OutputJournal } from './output-journal.js'
import { GENERATED_MARK } from './do-not-edit-notice.js'
import { OUTPUT_INDEX, readOutputIndex } from './output-index.js'
import { targetOfTemporary } from './temporary-path.js'

export interface OutputPlan {
  /** Files to write: missing, or with other contents. */
  readonly changed: ReadonlyMap<string, string>
  readonly missing: readonly string[]
  readonly unchanged: readonly string[]
  /** Generated earlier (listed in the index), no longer generated. */
  readonly stale: readonly string[]
  /** Paths restmint must write that hold a file restmint did not write. */
  readonly conflicts: readonly string[]
  /** Current contents of changed files, for diffs. */
  readonly previous: ReadonlyMap<string, string>
  /** The journal of a `generate` that was killed before it finished; null when there is none. */
  readonly interrupted: OutputJournal | null
  /** Files a killed `generate` left: staged files no journal accounts for, a dead process's lock. */
  readonly leftovers: readonly string[]
  /** Symlinks that writing or removing any of the above would go through and that lead out of the directory. */
  readonly escapes: readonly SymlinkEscape[]
}

/**
 * Compares rendered files with an output directory. `generate` applies the
 * plan and `check` reports it: both go through here, so they cannot disagree.
 */
export function planOutput(outDir: string, files: ReadonlyMap<string, string>): OutputPlan {
  const owned = new Set(readOutputIndex(outDir))
  const interrupted = readJournal(outDir)
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
  const journaled = new Set(interrupted ? journalPaths(interrupted) : [])
  const leftovers = findStagedFiles(outDir, [...owned, ...files.keys()]).filter((path) => !journaled.has(path))
  if (findStaleLock(outDir) !== null) leftovers.push(OUTPUT_LOCK)
  const touched = [...changed.keys(), ...stale, ...leftovers, ...journaled, OUTPUT_JOURNAL, OUTPUT_LOCK, OUTPUT_INDEX]
  const escapes = findEscapingSymlinks(outDir, touched)
  return { changed, missing, unchanged, stale, conflicts, previous, interrupted, leftovers, escapes }
}

/** Staged files (`*.restmint-<pid>.tmp`) in the directories output goes to. */
function findStagedFiles(outDir: string, paths: readonly string[]): string[] {
  const directories = new Set(['.', ...paths.map((path) => dirname(path))])
  const staged: string[] = []
  for (const directory of directories) {
    let names: string[]
    try {
      names = readdirSync(join(outDir, directory))
    } catch {
      continue
    }
    for (const name of names) {
      if (targetOfTemporary(name) !== null) staged.push(directory === '.' ? name : `${directory}/${name}`)
    }
  }
  return staged.sort()
}
