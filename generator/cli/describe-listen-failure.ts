import { UserError } from '../diagnostics/diagnostic.js'
import { findFreePort } from './find-free-port.js'

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
export async function ensurePortFree(port: number, host: string): Promise<void> {
  await findFreePort(host, port).catch((error: unknown) => {
    throw describeListenFailure(error, port, host) ?? error
  })
}
