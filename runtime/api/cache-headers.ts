import type { AccessOperation } from '../contract/access-rule.js'
import { addVary } from '../http/add-vary.js'
import type { RequestContext } from './route-context.js'

/**
 * GET answers: `Cache-Control` and `Vary`, private when the caller's
 * credentials shape them, as they do an answer showing soft-deleted records
 * (`showsDeleted`) whenever the `deleted` rule is not public.
 */
export function setCacheHeaders(
  context: RequestContext,
  operation: AccessOperation,
  include: readonly string[],
  showsDeleted = false,
): void {
  const { reply, route } = context
  const { access } = route.api
  const cacheControl = route.query.rules.cacheControl
  const byCaller =
    dependsOnCaller(context, operation, include) ||
    (showsDeleted && access.dependsOnCaller(route.table.name, 'deleted'))
  reply.header('cache-control', byCaller ? `private, ${cacheControl}` : cacheControl)
  addVary(reply, 'Accept')
  if (byCaller) for (const header of access.credentialHeaders) addVary(reply, header)
}

/** A nested route answers 404 to callers who may not read its parent; includes embed only readable rows. */
function dependsOnCaller(context: RequestContext, operation: AccessOperation, include: readonly string[]): boolean {
  const { access } = context.route.api
  const { table, parentLink } = context.route
  return (
    access.dependsOnCaller(table.name, operation) ||
    (parentLink !== null && access.dependsOnCaller(parentLink.parent.name, 'read')) ||
    (include.length > 0 && access.enabled)
  )
}
