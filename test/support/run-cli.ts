import { main } from '../../generator/cli/main.js'

export interface CliRun {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs the restmint CLI in-process, in `cwd`, capturing its output. */
export async function runCli(cwd: string, ...args: string[]): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const exitCode = await main(['node', 'restmint', ...args], {
    cwd,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    color: false,
  })
  return { exitCode, stdout, stderr }
}
