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

/** computeFields for the row a committed write answers with: a failing compute function leaves its fields null. */
export async function computeWrittenFields(context: RequestContext, row: Row): Promise<void> {
  const app = context.route.api.app
  if (app !== null)
    await app.computeRows(context.route.table, [row], [], { ...hookRequestOf(context), afterWrite: true })
}
