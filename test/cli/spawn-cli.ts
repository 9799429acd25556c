import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface CliProcess {
  /** Null when a signal ended it. */
  readonly exitCode: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const entry = join(import.meta.dirname, 'cli-process.ts')

/**
 * Runs the restmint CLI from source in a child process, in `cwd`: for what
 * only a real process shows (being killed, racing another run).
 */
export function spawnCli(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliProcess> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--conditions', 'restmint-source', '--import', tsxLoader, entry, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
    child.on('error', fail)
    child.on('close', (exitCode, signal) => done({ exitCode, signal, stdout, stderr }))
  })
}
