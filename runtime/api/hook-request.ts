import { describeHookCaller } from '../app/describe-hook-caller.js'
import type { HookRequest } from '../app/write-hooks.js'
import type { RequestContext } from './route-context.js'

/** What the app module's hooks and compute functions learn about a request. */
export function hookRequestOf(context: RequestContext): HookRequest {
  const { route, request, grant } = context
  // The route's prefix is its version's: `/v1`.
  return {
    log: request.log,
    caller: describeHookCaller(grant.caller),
    version: route.prefix.slice(1),
    translation: route.translation,
  }
}
