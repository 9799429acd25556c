import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { inject } from 'vitest'

// The CLI in a child process, compiled from the sources under test for this run (cli-global-setup.ts):
// tests exercise the code under test, never a stale or half-rebuilt dist/.
const ENTRY = join(inject('testBuildDirectory'), 'test', 'support', 'cli-process.js')

export interface Exit {
  /** Null when a signal ended it. */
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface CliProcess {
  /** Everything printed so far, for assertions and failure messages. */
  output(): { readonly stdout: string; readonly stderr: string }
  /** Resolves with the stdout so far once it matches; fails when the process exits first or after `ms`. */
  waitForStdout(pattern: RegExp, ms?: number): Promise<string>
  /** Resolves with how the process ended, once it has. */
  exited(): Promise<Exit>
  /** Sends `signal` (SIGTERM; SIGKILL for a crash) and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<Exit>
  /** Writes to its stdin, or ends it when `text` is null (an empty stdin ends at once, unless `stdin: 'pipe'`). */
  input(text: string | null): void
}

/** A finished run: how it ended and everything it printed. */
export interface FinishedCliProcess {
  readonly exitCode: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** Starts `restmint <args>` in `cwd` as its own process (for `serve`, which runs until a signal). */
export function spawnCli(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  stdin: 'ignore' | 'pipe' = 'ignore',
): CliProcess {
  const child = spawn(process.execPath, [ENTRY, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
  const ended = new Promise<Exit>((done, fail) => {
    child.once('error', fail)
    child.once('close', (code, signal) => done({ code, signal }))
  })
  const describe = (): string => `--- stdout\n${stdout}\n--- stderr\n${stderr}`
  return {
    output: () => ({ stdout, stderr }),
    async waitForStdout(pattern, ms = 20_000) {
      const deadline = Date.now() + ms
      while (!pattern.test(stdout)) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`restmint ${args.join(' ')} exited before printing ${pattern}\n${describe()}`)
        }
        if (Date.now() > deadline)
          throw new Error(`restmint ${args.join(' ')} printed no ${pattern} within ${ms} ms\n${describe()}`)
        await new Promise((done) => setTimeout(done, 50))
      }
      return stdout
    },
    exited: () => ended,
    input(text) {
      if (child.stdin === null) throw new Error("spawnCli: pass stdin 'pipe' to write to the process")
      if (text === null) child.stdin.end()
      else child.stdin.write(text)
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return ended
    },
  }
}

/** Runs `restmint <args>` in `cwd` to its end: for what only a real process shows (being killed, racing another run). */
export async function runCliProcess(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<FinishedCliProcess> {
  const cli = spawnCli(cwd, args, env)
  const { code, signal } = await cli.exited()
  return { exitCode: code, signal, ...cli.output() }
}
