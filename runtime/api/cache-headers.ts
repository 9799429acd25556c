import type { AccessOperation } from '../contract/access-rule.js'
import { addVary } from '../http/add-vary.js'
import type { RequestContext } from './route-context.js'

/** What else than the route shapes a GET answer. */
export interface AnswerShape {
  /** Soft-deleted records shown (`?deleted=include|only`). */
  readonly showsDeleted?: boolean
  /** A filter across relations: it matches through the related rows the caller may read. */
  readonly filtersAcrossRelations?: boolean
}

/**
 * GET answers: `Cache-Control` and `Vary`, private when the caller's
 * credentials shape them: as they do an answer showing soft-deleted records
 * whenever the `deleted` rule is not public, and one filtered across
 * relations whenever access rules exist.
 */
export function setCacheHeaders(
  context: RequestContext,
  operation: AccessOperation,
  include: readonly string[],
  shape: AnswerShape = {},
): void {
  const { reply, route } = context
  const { access } = route.api
  const cacheControl = route.query.rules.cacheControl
  const byCaller =
    dependsOnCaller(context, operation, include) ||
    (shape.showsDeleted === true && access.dependsOnCaller(route.table.name, 'deleted')) ||
    (shape.filtersAcrossRelations === true && access.enabled)
  reply.header('cache-control', byCaller ? `private, ${cacheControl}` : cacheControl)
  addVary(reply, 'Accept')
  if (byCaller) for (const header of access.credentialHeaders) addVary(reply, header)
}

/**
 * A nested route answers 404 to callers who may not read its parent; a many-to-many's list shows the links
 * its caller may list; includes embed only readable rows.
 */
function dependsOnCaller(context: RequestContext, operation: AccessOperation, include: readonly string[]): boolean {
  const { access } = context.route.api
  const { table, parentLink, link } = context.route
  return (
    access.dependsOnCaller(table.name, operation) ||
    (parentLink !== null && access.dependsOnCaller(parentLink.parent.name, 'read')) ||
    (link !== undefined && access.dependsOnCaller(link.join.name, 'list')) ||
    (include.length > 0 && access.enabled)
  )
}
