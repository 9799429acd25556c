/** App-module code (a hook, a compute function, an operation's handler) that had not settled in its time. */
export class DeadlineExceededError extends Error {
  constructor(readonly ms: number) {
    super(`did not finish within ${ms} ms (the server's timeouts.hookMs)`)
    this.name = 'DeadlineExceededError'
  }
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
    const timer = setTimeout(() => reject(new DeadlineExceededError(ms)), ms)
    running.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}
