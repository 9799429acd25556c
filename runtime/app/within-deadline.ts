/** App-module code (a hook, a compute function, an operation's handler) that had not settled in its time. */
export class DeadlineExceededError extends Error {
  constructor(readonly ms: number) {
    super(`did not finish within ${ms} ms (the server's timeouts.hookMs)`)
    this.name = 'DeadlineExceededError'
  }
}

interface Waiting {
  /** performance.now() at which it has failed. */
  readonly due: number
  readonly ms: number
  readonly fail: (error: DeadlineExceededError) => void
}

// One sweep for every call, rather than a timer each: a hook runs on every hooked write, and a timer's
// set-up and clearing cost several times what the rest of the deadline does.
const waiting = new Set<Waiting>()
let sweeper: NodeJS.Timeout | undefined
let sweepEveryMs = Infinity

/** Fails every call past its due time; stops once none is left. */
function sweep(): void {
  if (waiting.size === 0) {
    clearInterval(sweeper)
    sweeper = undefined
    sweepEveryMs = Infinity
    return
  }
  const now = performance.now()
  for (const entry of waiting) {
    if (entry.due > now) continue
    waiting.delete(entry)
    entry.fail(new DeadlineExceededError(entry.ms))
  }
}

/** A sweep at least every tenth of `ms` (10 ms to 1 s), so a deadline is kept to within ~10%. */
function sweepFor(ms: number): void {
  const every = Math.min(1000, Math.max(10, Math.floor(ms / 10)))
  if (sweeper !== undefined && every >= sweepEveryMs) return
  clearInterval(sweeper)
  sweepEveryMs = every
  // unref: a sweep never keeps the process alive.
  sweeper = setInterval(sweep, every).unref()
}

/**
 * What `run` settles to, or a DeadlineExceededError once `ms` have passed
 * (0 or Infinity: no deadline). Code cannot be stopped: a late settlement is
 * ignored, so what it holds (a transaction, the SQLite connection) is
 * released by the caller's own failure path, and a late write of it is
 * refused by its ended transaction.
 */
export function withinDeadline<T>(run: () => T | Promise<T>, ms: number): Promise<T> {
  let running: Promise<T>
  try {
    running = Promise.resolve(run())
  } catch (error) {
    return Promise.reject(error)
  }
  if (!(ms > 0 && ms < Infinity)) return running
  return new Promise<T>((resolve, reject) => {
    const entry: Waiting = { due: performance.now() + ms, ms, fail: reject }
    waiting.add(entry)
    sweepFor(ms)
    running.then(
      (value) => {
        waiting.delete(entry)
        resolve(value)
      },
      (error: unknown) => {
        waiting.delete(entry)
        reject(error)
      },
    )
  })
}
