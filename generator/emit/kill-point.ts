let stepsDone = 0

/**
 * Marks the end of one file-system step of `generate` (a file staged, renamed
 * or removed, the journal or the lock written or removed). With
 * `RESTMINT_KILL_AFTER_STEP=k` in the environment the process kills itself
 * with SIGKILL right after the k-th step: tests interrupt a real `generate`
 * at every point this way and check that the next run repairs the output.
 */
export function killPoint(): void {
  const killAfter = process.env.RESTMINT_KILL_AFTER_STEP
  if (killAfter === undefined) return
  stepsDone += 1
  if (stepsDone === Number(killAfter)) process.kill(process.pid, 'SIGKILL')
}
