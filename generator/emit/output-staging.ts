import { lstatSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs'
import { UserError } from '../diagnostics/diagnostic.js'
import { basename, dirname, join } from 'node:path'
import { isRunning } from './output-lock.js'

/**
 * The output directory as it is replaced: where a link standing for it leads,
 * so the link stays. Refuses a file standing there.
 */
export function resolveOutputDirectory(absoluteOut: string): string {
  let real: string
  try {
    real = realpathSync(absoluteOut)
  } catch {
    return absoluteOut // Not there yet.
  }
  if (!lstatSync(real).isDirectory()) {
    throw new UserError(
      `${absoluteOut} is not a directory (a file stands there), and restmint writes its output into ` +
        `a directory there; move the file, or pass another --out directory`,
    )
  }
  return real
}

/**
 * Beside the output directory `generated`, so that renames stay on one file
 * system: the lock a `generate` holds while it writes
 * (`.generated.restmint-lock`), where it builds the new output
 * (`.generated.restmint-new-<pid>`) and where it moves the old one aside
 * (`.generated.restmint-old-<pid>`).
 */
export function stagingPaths(outDir: string): {
  readonly lock: string
  readonly staged: string
  readonly movedAside: string
} {
  const prefix = join(dirname(outDir), `.${basename(outDir)}.restmint-`)
  return { lock: `${prefix}lock`, staged: `${prefix}new-${process.pid}`, movedAside: `${prefix}old-${process.pid}` }
}

/** A directory beside the output that a run left; `old` ones hold a whole earlier output. */
export interface RunDirectory {
  readonly path: string
  readonly kind: 'new' | 'old'
  readonly pid: number
}

/** The directories beside `outDir` that killed runs left (a running one's are in use). */
export function findLeftovers(outDir: string): RunDirectory[] {
  const pattern = new RegExp(`^\\.${escapeRegExp(basename(outDir))}\\.restmint-(new|old)-(\\d+)$`)
  let names: string[]
  try {
    names = readdirSync(dirname(outDir))
  } catch {
    return []
  }
  return names
    .sort()
    .flatMap((name) => {
      const match = pattern.exec(name)
      if (!match) return []
      return [{ path: join(dirname(outDir), name), kind: match[1] as 'new' | 'old', pid: Number(match[2]) }]
    })
    .filter(({ pid }) => pid !== process.pid && !isRunning(pid))
}

/**
 * The old output a killed run moved aside and never replaced: a run is killed
 * between its two renames. Null when the output directory stands.
 */
export function findMovedAsideOutput(outDir: string, dead: readonly RunDirectory[], outExists: boolean): string | null {
  if (outExists) return null
  return dead.filter(({ kind }) => kind === 'old').at(-1)?.path ?? null
}

/** Puts back the output a killed run moved aside, if none stands, and removes what killed runs left. */
export function recoverKilledRuns(outDir: string, dead: readonly RunDirectory[], outExists: boolean): void {
  const movedAside = findMovedAsideOutput(outDir, dead, outExists)
  if (movedAside !== null) renameSync(movedAside, outDir)
  for (const { path } of dead) if (path !== movedAside) rmSync(path, { recursive: true, force: true })
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
