import type { HookCaller } from '../app/define-app.js'
import type { HookRequest } from '../app/write-hooks.js'
import type { RequestContext } from './route-context.js'

const NO_SCOPES: ReadonlySet<string> = new Set()

/** What the app module's hooks and compute functions learn about a request. */
export function hookRequestOf(context: RequestContext): HookRequest {
  const { route, request, grant } = context
  const caller = grant.caller
  const hookCaller: HookCaller = {
    subject: typeof caller?.claims.sub === 'string' ? caller.claims.sub : null,
    scheme: caller?.scheme ?? null,
    scopes: caller?.scopes ?? NO_SCOPES,
  }
  // The route's prefix is its version's: `/v1`.
  return { log: request.log, caller: hookCaller, version: route.prefix.slice(1), translation: route.translation }
}
