import type { WriteHooks } from '../app/write-hooks.js'
import { hookRequestOf } from './hook-request.js'
import type { RequestContext } from './route-context.js'

/** The app module's hooks of the request's resource, for the write handlers; null when it has none. */
export function openWriteHooks(context: RequestContext): WriteHooks | null {
  const app = context.route.api.app
  return app === null ? null : app.openWriteHooks(context.route.table, hookRequestOf(context))
}
