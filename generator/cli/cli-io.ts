/** Where a CLI run reads and writes; tests pass their own. */
export interface CliIo {
  readonly cwd: string
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** Colour diagnostics (TTY and no NO_COLOR). */
  readonly color: boolean
}

export function processIo(): CliIo {
  // A closed pipe (`restmint check | head`) is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
  return {
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR,
  }
}
