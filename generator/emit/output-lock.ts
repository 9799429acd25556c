import { linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { UserError } from '../diagnostics/diagnostic.js'
import { killPoint } from './kill-point.js'
import { removeEmptyDirectories } from './remove-empty-directories.js'
import { temporaryPathOf } from './temporary-path.js'
import { writeNewFile } from './write-new-file.js'

/** In the migrations directory while a `migrate create` writes there; holds that process's id. */
export const OUTPUT_LOCK = '.restmint-lock'

/** Who takes a lock, for the message that names them to the next one. */
export interface LockHolder {
  readonly command: string
  readonly directory: string
}

/**
 * Runs `action` while holding the output directory's lock, so two runs never
 * plan or write the same directory at once: the second one stops with an
 * error naming the first. Creates the directory if needed, and removes it
 * again if the action leaves it empty.
 */
export function withOutputLock<T>(outDir: string, action: () => T, holder: LockHolder): T {
  const created = makeDirectory(outDir, holder.command)
  try {
    return withLock(join(outDir, OUTPUT_LOCK), action, holder)
  } finally {
    if (created !== undefined) removeEmptyDirectories(created)
  }
}

/**
 * Runs `action` holding the lock file `lock` (which holds this process's id).
 * While a running process holds it, waits up to `waitMs` for it, then stops
 * with an error naming that process. A lock left by a process that no longer
 * exists (killed) is taken over.
 *
 * Two runs finding the same dead lock at the same instant could both take it
 * over; that needs a killed run and two new ones within microseconds.
 */
export function withLock<T>(lock: string, action: () => T, holder: LockHolder, waitMs = 0): T {
  acquire(lock, holder, Date.now() + waitMs)
  killPoint()
  try {
    return action()
  } finally {
    rmSync(lock, { force: true })
    killPoint()
  }
}

function acquire(lock: string, holder: LockHolder, deadline: number): void {
  // Written aside and linked into place, so a lock is never seen without its process id.
  const pending = temporaryPathOf(lock)
  writeNewFile(pending, `${process.pid}\n`)
  const pause = new Int32Array(new SharedArrayBuffer(4))
  try {
    for (;;) {
      try {
        linkSync(pending, lock)
        return
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const pid = lockHolder(lock)
      if (pid === 'released') continue
      if (pid === null) {
        throw new UserError(`${lock} is not a restmint lock (it holds no process id); delete it and run this again`)
      }
      if (pid !== process.pid && isRunning(pid)) {
        if (Date.now() < deadline) {
          Atomics.wait(pause, 0, 0, 20)
          continue
        }
        throw new UserError(
          `another ${holder.command} (process ${pid}) is writing to ${holder.directory} (it holds ${lock}); ` +
            `wait for it to finish and run this again. If no such process exists, delete ${lock}.`,
        )
      }
      // Its holder was killed, so nothing else will remove it.
      rmSync(lock, { force: true })
    }
  } finally {
    rmSync(pending, { force: true })
  }
}

function lockHolder(lock: string): number | null | 'released' {
  let text: string
  try {
    text = readFileSync(lock, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'released'
    throw error
  }
  return /^\d+\n$/.test(text) ? Number(text.trim()) : null
}

/** Whether process `pid` exists: a lock or directory it left is in use, not left by a killed run. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** mkdir -p, refusing a file that stands where the directory must be. */
function makeDirectory(outDir: string, command: string): string | undefined {
  try {
    return mkdirSync(outDir, { recursive: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw error
    throw new UserError(
      `${outDir} is not a directory (a file stands there, or on the way to it), and ${command} writes into ` +
        `a directory there; move the file, or pass another directory`,
    )
  }
}
