import { spawn, type ChildProcess } from 'node:child_process'
import type { CliIo } from './cli-io.js'

/**
 * `restmint serve --listen-when-told` run by `restmint dev` as a process of its own, so that a restart loads
 * the module afresh: it loads while the previous server stops, and listens once `listen()` tells it to.
 */
export interface ServeProcess {
  /** Tells it to listen (the port is free); until then it only loads. */
  listen(): void
  /** Resolves with the address once it listens, or with null when it exits first (its output says why). */
  readonly listening: Promise<string | null>
  /** Stops it (SIGTERM: it finishes the requests in flight) and resolves once it has exited. */
  stop(): Promise<void>
}

/**
 * Starts `restmint serve <args>` with the same Node options and entry script
 * as this process (the bin, or a test's compiled CLI), forwarding its output.
 */
export function startServeProcess(args: readonly string[], io: CliIo): ServeProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    [...process.execArgv, process.argv[1]!, 'serve', '--listen-when-told', ...args],
    { cwd: io.cwd, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  // A process that exits before it is told writes nothing more: its stdin may be closed already.
  child.stdin!.on('error', () => {})
  const exited = new Promise<void>((done) => child.once('close', () => done()))
  // Its output until it says where it listens (chunks may split the line).
  let printed: string | null = ''
  // What it says while it stops for a restart is not news.
  let stopping = false
  const listening = new Promise<string | null>((done) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString()
      if (!stopping) io.stdout(text)
      if (printed === null) return
      printed += text
      const address = /serving \S+ at (\S+)/.exec(printed)?.[1]
      if (address === undefined) return
      printed = null
      done(address)
    })
    child.stderr!.on('data', (chunk: Buffer) => io.stderr(chunk.toString()))
    void exited.then(() => done(null))
  })
  return {
    listen: () => void child.stdin!.write('listen\n'),
    listening,
    async stop() {
      stopping = true
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
