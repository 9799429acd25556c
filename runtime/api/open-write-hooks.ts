import type { HookCaller } from '../app/define-app.js'
import type { WriteHooks } from '../app/write-hooks.js'
import type { RequestContext } from './route-context.js'

const NO_SCOPES: ReadonlySet<string> = new Set()

/** The app module's hooks of the request's resource, for the write handlers; null when it has none. */
export function openWriteHooks(context: RequestContext): WriteHooks | null {
  const { route, request, grant } = context
  if (route.api.app === null) return null
  const caller = grant.caller
  const hookCaller: HookCaller = {
    subject: typeof caller?.claims.sub === 'string' ? caller.claims.sub : null,
    scheme: caller?.scheme ?? null,
    scopes: caller?.scopes ?? NO_SCOPES,
  }
  return route.api.app.openWriteHooks(route.table, {
    log: request.log,
    caller: hookCaller,
    // The route's prefix is its version's: `/v1`.
    version: route.prefix.slice(1),
    translation: route.translation,
  })
}
