import { spawn } from 'node:child_process'

// The CLI from source in a child process, as bin/restmint.js runs it in a checkout without dist/:
// tests exercise the code under test, never a stale or half-rebuilt dist/.
const MAIN = new URL('../../generator/cli/main.ts', import.meta.url).href
const RUN_MAIN = `const { main } = await import(${JSON.stringify(MAIN)}); process.exitCode = await main(process.argv)`

export interface CliProcess {
  /** Everything printed so far, for assertions and failure messages. */
  output(): { readonly stdout: string; readonly stderr: string }
  /** Resolves with the stdout so far once it matches; fails when the process exits first or after `ms`. */
  waitForStdout(pattern: RegExp, ms?: number): Promise<string>
  /** Resolves with how the process ended, once it has. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Sends SIGTERM and resolves with how the process ended. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts `restmint <args>` in `cwd` as its own process (for `serve`, which runs until a signal). */
export function spawnCli(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', RUN_MAIN, '--', 'restmint', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  )
  const describe = (): string => `--- stdout\n${stdout}\n--- stderr\n${stderr}`
  return {
    output: () => ({ stdout, stderr }),
    async waitForStdout(pattern, ms = 20_000) {
      const deadline = Date.now() + ms
      while (!pattern.test(stdout)) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`restmint ${args.join(' ')} exited before printing ${pattern}\n${describe()}`)
        }
        if (Date.now() > deadline) throw new Error(`restmint ${args.join(' ')} printed no ${pattern} within ${ms} ms\n${describe()}`)
        await new Promise((done) => setTimeout(done, 50))
      }
      return stdout
    },
    exited: () => ended,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return ended
    },
  }
}
