import type { FastifyBaseLogger } from 'fastify'

/**
 * Logs a failure of app-module code with what it threw. A thrown value the
 * logger cannot read (a revoked Proxy, getters that throw) is logged as
 * such: logging a failure must not become a failure of its own.
 */
export function logAppFailure(
  log: FastifyBaseLogger,
  fields: Readonly<Record<string, unknown>>,
  error: unknown,
  message: string,
): void {
  try {
    log.error({ ...fields, err: error }, message)
  } catch {
    log.error({ ...fields, err: new Error('a thrown value the logger could not read') }, message)
  }
}

/** `error instanceof type`, false for a value that cannot be asked (a revoked Proxy throws). */
export function isInstance<T>(error: unknown, type: abstract new (...args: never[]) => T): error is T {
  try {
    return error instanceof type
  } catch {
    return false
  }
}
