import { createServer } from 'node:net'
import { UserError } from '../diagnostics/diagnostic.js'

/** Why listening on `port` of `host` failed, as the CLI says it, with the flag to change; undefined for another error. */
export function describeListenFailure(error: unknown, port: number, host: string): UserError | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (code === 'EADDRINUSE') return new UserError(`port ${port} on ${host} is already in use; pass another with --port`)
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new UserError(
      `cannot listen on ${host}: no interface of this machine has that address (${code}); pass another with --host`,
    )
  }
  if (code === 'EACCES') {
    return new UserError(
      `not allowed to listen on port ${port} of ${host} (EACCES); pass a port above 1023 with --port`,
    )
  }
  return undefined
}

/** Throws what describeListenFailure says when `port` of `host` cannot be listened on now. */
export function ensurePortFree(port: number, host: string): Promise<void> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', (error) => fail(describeListenFailure(error, port, host) ?? error))
    server.listen(port, host, () => server.close(() => done()))
  })
}
