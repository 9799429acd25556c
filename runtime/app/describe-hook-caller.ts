import type { Caller } from '../access/caller.js'
import type { HookCaller } from './define-app.js'

const NO_SCOPES: ReadonlySet<string> = new Set()

/** The caller as hooks and operation handlers see it: `sub` (a numeric one in decimal), scheme, scopes; null fields without credentials. */
export function describeHookCaller(caller: Caller | null): HookCaller {
  const sub = caller?.claims.sub
  return {
    subject: typeof sub === 'string' || typeof sub === 'number' ? String(sub) : null,
    scheme: caller?.scheme ?? null,
    scopes: caller?.scopes ?? NO_SCOPES,
  }
}
