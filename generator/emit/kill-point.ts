let stepsDone = 0

/**
 * Marks the end of one file-system step of `generate` or `migrate create`
 * (the lock taken or released, the new output staged, a directory renamed or
 * removed). With `RESTMINT_KILL_AFTER_STEP=k` in the environment the process
 * kills itself with SIGKILL right after the k-th step: tests interrupt a real
 * run at every point this way and check that the next run repairs what it left.
 */
export function killPoint(): void {
  const killAfter = process.env.RESTMINT_KILL_AFTER_STEP
  if (killAfter === undefined) return
  stepsDone += 1
  if (stepsDone === Number(killAfter)) process.kill(process.pid, 'SIGKILL')
}
