import type { Row } from '../contract/table-definition.js'
import { hookRequestOf } from './hook-request.js'
import type { RequestContext } from './route-context.js'

/**
 * Sets the computed fields of `rows` (stored rows of the route's table, with
 * what `include` embeds, in storage paths) from the app module's compute
 * functions, one call per resource and page, before they are translated to
 * the request's version.
 */
export async function computeFields(context: RequestContext, rows: Row[], include: readonly string[]): Promise<void> {
  const app = context.route.api.app
  if (app !== null) await app.computeRows(context.route.table, rows, include, hookRequestOf(context))
}
