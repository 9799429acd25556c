import { existsSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { UserError } from '../diagnostics/diagnostic.js'
import { killPoint } from './kill-point.js'
import { isSafeRelativePath } from './output-index.js'
import { removeEmptyDirectories } from './remove-empty-directories.js'
import { targetOfTemporary, temporaryPathOf } from './temporary-path.js'
import { writeNewFile } from './write-new-file.js'

/**
 * In the output directory while a `generate` changes it: what that run is
 * doing, written before it changes anything. If the run is killed, the next
 * one finishes or undoes its work from here, so the output is never left a
 * mix of two runs.
 */
export const OUTPUT_JOURNAL = '.restmint-journal'

export interface OutputJournal {
  /**
   * `staging`: new files are being written under temporary names and nothing
   * is in place yet; an interrupted run is rolled back. `committing`: every
   * new file is staged, and they are being renamed into place and stale files
   * removed; an interrupted run is rolled forward.
   */
  readonly phase: 'staging' | 'committing'
  /** Temporary path → target path, both relative to the output directory. */
  readonly renames: readonly (readonly [string, string])[]
  /** Files no longer generated. */
  readonly removals: readonly string[]
  /** Directories the run creates for new files, removed again by a rollback. */
  readonly createdDirectories: readonly string[]
}

/** The journal a run writing `changed` and removing `stale` starts from. */
export function startJournal(outDir: string, changed: Iterable<string>, stale: readonly string[]): OutputJournal {
  const renames = [...changed].map((path) => [temporaryPathOf(path), path] as const)
  const createdDirectories = new Set<string>()
  for (const [, path] of renames) {
    const topmostMissing = topmostMissingDirectory(outDir, dirname(path))
    if (topmostMissing !== null) createdDirectories.add(topmostMissing)
  }
  return { phase: 'staging', renames, removals: stale, createdDirectories: [...createdDirectories] }
}

/** Replaces the journal in one rename, so it is always whole. */
export function writeJournal(outDir: string, journal: OutputJournal): void {
  const path = join(outDir, OUTPUT_JOURNAL)
  const pending = temporaryPathOf(path)
  writeNewFile(pending, `${JSON.stringify(journal, null, 2)}\n`)
  renameSync(pending, path)
  killPoint()
}

/** The journal of an interrupted run, or null. Throws a UserError when it was edited into nonsense. */
export function readJournal(outDir: string): OutputJournal | null {
  const path = join(outDir, OUTPUT_JOURNAL)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  let journal: unknown
  try {
    journal = JSON.parse(text)
  } catch {
    journal = null
  }
  if (!isJournal(journal)) {
    throw new UserError(
      `${path} is damaged, so the interrupted restmint generate it records can be neither finished nor undone; ` +
        `delete it and run restmint generate again (then restmint check shows whether the output is whole)`,
    )
  }
  return journal
}

/**
 * Finishes (committing) or undoes (staging) the run a journal records, then
 * removes the journal. Safe to repeat: a run killed while recovering is
 * recovered by the next one.
 */
export function recoverInterruptedWrite(outDir: string, journal: OutputJournal): void {
  if (journal.phase === 'committing') commitJournal(outDir, journal)
  else rollBackJournal(outDir, journal)
}

/** Renames every staged file into place, removes stale files, then the journal. */
export function commitJournal(outDir: string, journal: OutputJournal): void {
  for (const [temporary, target] of journal.renames) {
    // Already renamed when a previous attempt was interrupted.
    if (!existsSync(join(outDir, temporary))) continue
    renameSync(join(outDir, temporary), join(outDir, target))
    killPoint()
  }
  for (const path of journal.removals) {
    rmSync(join(outDir, path), { force: true })
    removeEmptyParents(outDir, dirname(path))
    killPoint()
  }
  removeJournal(outDir)
}

/** Removes every staged file and the directories made for them, then the journal. */
export function rollBackJournal(outDir: string, journal: OutputJournal): void {
  for (const [temporary] of journal.renames) removeStaged(join(outDir, temporary))
  for (const directory of journal.createdDirectories) removeEmptyDirectories(join(outDir, directory))
  removeJournal(outDir)
}

function removeStaged(path: string): void {
  try {
    rmSync(path, { force: true })
  } catch (error) {
    // A name too long for the file system is why staging failed: that file never existed.
    if ((error as NodeJS.ErrnoException).code !== 'ENAMETOOLONG') throw error
  }
}

function removeJournal(outDir: string): void {
  rmSync(join(outDir, OUTPUT_JOURNAL), { force: true })
  killPoint()
}

/** The paths a journal touches, for the symlink check. */
export function journalPaths(journal: OutputJournal): string[] {
  return [...journal.renames.flat(), ...journal.removals, ...journal.createdDirectories]
}

function topmostMissingDirectory(outDir: string, directory: string): string | null {
  let missing: string | null = null
  for (let current = directory; current !== '.' && !existsSync(join(outDir, current)); current = dirname(current)) {
    missing = current
  }
  return missing
}

function removeEmptyParents(outDir: string, directory: string): void {
  for (let current = directory; current !== '.' && current !== ''; current = dirname(current)) {
    const absolute = join(outDir, current)
    // Gone already when an earlier, interrupted attempt removed it.
    if (!existsSync(absolute)) continue
    if (readdirSync(absolute).length > 0) return
    rmdirSync(absolute)
  }
}

function isJournal(value: unknown): value is OutputJournal {
  if (typeof value !== 'object' || value === null) return false
  const { phase, renames, removals, createdDirectories } = value as Record<string, unknown>
  const isPathList = (list: unknown): list is string[] =>
    Array.isArray(list) && list.every((path) => typeof path === 'string' && isSafeRelativePath(path))
  return (
    (phase === 'staging' || phase === 'committing') &&
    Array.isArray(renames) &&
    renames.every(
      (rename) => isPathList(rename) && rename.length === 2 && targetOfTemporary(rename[0]!) === rename[1],
    ) &&
    isPathList(removals) &&
    isPathList(createdDirectories)
  )
}
