import { ProblemError } from '../problems/problem-error.js'
import type { Row } from '../contract/table-definition.js'
import type { RowFilter } from '../storage/storage.js'
import { LIVE_ONLY, type DeletedAccess } from './read-deleted-visibility.js'
import { recordIdOf, type RequestContext } from './route-context.js'

/** The rows a nested route sees: those whose parent key is the path's parent id. */
export function parentFilterOf(context: RequestContext): RowFilter {
  const link = context.route.parentLink
  return link ? { [link.column]: context.params[link.param]! } : {}
}

/**
 * parentFilterOf, once the parent is known to exist and to be readable by the
 * caller (else 404): a nested route acts only inside a parent the caller could read.
 */
export async function resolveParent(context: RequestContext): Promise<RowFilter> {
  const link = context.route.parentLink
  if (!link) return {}
  const parentId = context.params[link.param]!
  const readable = context.grant.readableRowsOf(link.parent.name)
  if (readable === null || !(await context.route.api.storage.find(link.parent, parentId, readable))) {
    throw new ProblemError('not_found', `No ${link.parentSingular} with id ${parentId}.`)
  }
  return parentFilterOf(context)
}

/**
 * The record an item route names, inside its parent and the caller's rows;
 * else the 403 or 404 explainMissing gives. A live one, unless `deleted`
 * (readDeletedVisibility) lets a soft-deleted one be seen.
 */
export async function findRecordOrFail(context: RequestContext, deleted: DeletedAccess = LIVE_ONLY): Promise<Row> {
  const parent = await resolveParent(context)
  const { table, api } = context.route
  const rows = { ...parent, ...context.grant.rows, ...deleted.rows }
  const row = await api.storage.find(table, recordIdOf(context), rows, deleted.visibility)
  if (!row) throw await explainMissing(context, parent)
  return row
}

/**
 * A row the operation's statement did not find: 403 when the grant was
 * limited to the caller's own rows and the row exists and is readable to
 * them (it is someone else's), else 404, as if it did not exist.
 */
export async function explainMissing(context: RequestContext, parent: RowFilter): Promise<ProblemError> {
  const { grant } = context
  const { table, api } = context.route
  const readable = grant.readableRowsOf(table.name)
  if (Object.keys(grant.rows).length > 0 && readable !== null) {
    const id = recordIdOf(context)
    if (await api.storage.find(table, id, { ...parent, ...readable })) {
      return new ProblemError(
        'forbidden',
        `${table.singular} ${id} is not yours; only its owner${grant.scopeAlternatives
          .map((scopes) => `, or a caller with scope ${scopes.join(' and ')},`)
          .join('')} may change it.`,
      )
    }
  }
  const link = context.route.parentLink
  const where = link ? ` in ${link.parentSingular} ${context.params[link.param]}` : ''
  return new ProblemError(
    'not_found',
    `No ${context.route.translation.view.singular} with id ${recordIdOf(context)}${where}.`,
  )
}
