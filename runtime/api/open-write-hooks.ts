import { describeHookCaller } from '../app/describe-hook-caller.js'
import type { WriteHooks } from '../app/write-hooks.js'
import type { RequestContext } from './route-context.js'

/** The app module's hooks of the request's resource, for the write handlers; null when it has none. */
export function openWriteHooks(context: RequestContext): WriteHooks | null {
  const { route, request, grant } = context
  if (route.api.app === null) return null
  return route.api.app.openWriteHooks(route.table, {
    log: request.log,
    caller: describeHookCaller(grant.caller),
    // The route's prefix is its version's: `/v1`.
    version: route.prefix.slice(1),
    translation: route.translation,
  })
}
