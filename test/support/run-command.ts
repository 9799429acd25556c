import { execFile } from 'node:child_process'

export interface CommandRun {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

/** The child environment, without the npm_* / vitest settings of whatever launched the tests. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|vitest|NODE_OPTIONS$|INIT_CWD$)/i.test(key)) continue
    env[key] = value
  }
  return { ...env, ...extra }
}

/** Runs a command to its end in a clean environment; never rejects, so a failure can report the output. */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  options: { timeout: number; env?: NodeJS.ProcessEnv },
): Promise<CommandRun> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd, env: cleanEnv(options.env), timeout: options.timeout, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1
        done({ exitCode: code, stdout, stderr: error !== null && code === -1 ? `${stderr}\n${error.message}` : stderr })
      },
    )
  })
}

/** Fails with the command's output, so a broken step says why. */
export function expectSuccess(result: CommandRun, what: string): void {
  if (result.exitCode !== 0) {
    throw new Error(`${what} exited ${result.exitCode}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`)
  }
}
