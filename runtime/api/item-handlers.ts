import { ensureReadableReferences } from '../access/ensure-readable-references.js'
import type { Row } from '../contract/table-definition.js'
import { includeRelations } from '../include/include-relations.js'
import { ProblemError } from '../problems/problem-error.js'
import { readItemQuery, rejectQuery } from '../query/read-query.js'
import { PreconditionFailedError, RowReferencedError } from '../storage/storage-errors.js'
import type { RowPrecondition } from '../storage/storage.js'
import { setCacheHeaders } from './cache-headers.js'
import { matchesWeakly, preconditionFailed, readCondition, readIfMatch } from './conditional-request.js'
import { entityTagOf } from './entity-tag.js'
import { explainMissing, findRecordOrFail, resolveParent } from './find-record.js'
import { readBody, rejectMergePatch, withDefaults } from './read-body.js'
import { openRequest, recordIdOf, type RequestContext, type RouteHandler } from './route-context.js'
import { mapWriteErrors } from './write-errors.js'
import { openWriteHooks } from './open-write-hooks.js'
import { computeFields, computeWrittenFields } from './compute-fields.js'
import { readDeletedVisibility } from './read-deleted-visibility.js'

/** GET on an item: the record with its includes and `ETag`, or 304 when `If-None-Match` matches. */
export const readRecord: RouteHandler = async (route, request, reply) => {
  const context = openRequest(route, request, reply)
  const { api, translation } = route
  const include = readItemQuery(route.query, request.url)
  const ifNoneMatch = readCondition(request, 'if-none-match')
  const deleted = await readDeletedVisibility(context)
  const row = await findRecordOrFail(context, deleted)
  const tag = entityTagOf(route.table, row)
  reply.header('etag', tag)
  setCacheHeaders(context, 'read', include, { showsDeleted: deleted.visibility !== 'exclude' })
  // The tag is the stored row's, whatever `include` embeds (so it serves a later If-Match); the embedded
  // rows change without changing it, so an answer that embeds them is never a 304.
  if (ifNoneMatch && include.length === 0 && matchesWeakly(ifNoneMatch, tag)) return reply.code(304).send()
  const truncated = await includeRelations(
    api.storage,
    api.tables,
    route.table,
    [row],
    include.map(translation.includeOf),
    {
      pointers: ['/data'],
      itemsMax: api.limits.includeItemsMax,
      prefix: route.prefix,
      readableRowsOf: context.grant.readableRowsOf,
      names: route.includeNames,
    },
  )
  await computeFields(context, [row], include.map(translation.includeOf))
  const data = translation.rowToVersion(row)
  return truncated.length > 0 ? { data, meta: { truncated } } : { data }
}

/** PUT: replaces exactly the columns the version sees; what another version alone sees stays. */
export const replaceRecord: RouteHandler = async (route, request, reply) => {
  rejectMergePatch(request)
  const context = openRequest(route, request, reply)
  rejectQuery(request.url)
  const precondition = readIfMatch(request, route.table, route.requireIfMatch)
  const body = readBody(route, route.bodies.replace, request.body)
  const { translation } = route
  const values = translation.bodyToStorage(withDefaults(translation.view, body, route.parentLink?.param), false)
  const row = await updateOrFail(context, values, precondition)
  reply.header('etag', entityTagOf(route.table, row))
  await computeWrittenFields(context, row)
  return { data: translation.rowToVersion(row) }
}

/** PATCH: writes the members the body has; an empty body answers the stored record. */
export const updateRecord: RouteHandler = async (route, request, reply) => {
  const context = openRequest(route, request, reply)
  rejectQuery(request.url)
  const precondition = readIfMatch(request, route.table, route.requireIfMatch)
  const body = readBody(route, route.bodies.update, request.body)
  let row: Row
  if (Object.keys(body).length > 0) {
    row = await updateOrFail(context, route.translation.bodyToStorage(body, false), precondition)
  } else {
    // Nothing to write, so nothing to keep atomic: the stored row answers, If-Match checked against it.
    row = await findRecordOrFail(context)
    if (precondition && !precondition(row)) throw preconditionFailed(route.table, row)
  }
  reply.header('etag', entityTagOf(route.table, row))
  await computeWrittenFields(context, row)
  return { data: route.translation.rowToVersion(row) }
}

/** DELETE: 204, or 409 while other rows still reference the record. */
export const removeRecord: RouteHandler = async (route, request, reply) => {
  const context = openRequest(route, request, reply)
  rejectQuery(request.url)
  const { api, table } = route
  const precondition = readIfMatch(request, table, route.requireIfMatch)
  const parent = await resolveParent(context)
  const id = recordIdOf(context)
  const rows = { ...parent, ...context.grant.rows }
  const hooks = openWriteHooks(context)
  if (hooks) await hooks.beforeDelete(await findRecordOrFail(context))
  let deleted: boolean
  try {
    deleted = await (hooks
      ? hooks.delete((storage, capture) => storage.delete(table, id, rows, capture), precondition)
      : api.storage.delete(table, id, rows, precondition))
  } catch (error) {
    if (error instanceof PreconditionFailedError) throw preconditionFailed(table, error.current)
    if (!(error instanceof RowReferencedError)) throw error
    throw stillReferenced(context, id, error)
  }
  if (!deleted) throw await explainMissing(context, parent)
  return reply.code(204).send()
}

/**
 * POST on a soft-deleted record's `restorations`: 200 with the record brought
 * back. 409 when it is not deleted, or when a live record took one of its
 * unique values meanwhile (naming the field); 404 when there is no such record.
 */
export const restoreRecord: RouteHandler = async (route, request, reply) => {
  rejectMergePatch(request)
  const context = openRequest(route, request, reply)
  rejectQuery(request.url)
  const { api, table, translation } = route
  const parent = await resolveParent(context)
  const id = recordIdOf(context)
  const rows = { ...parent, ...context.grant.rows }
  const row = await mapWriteErrors(route, () => api.storage.restore(table, id, rows))
  if (!row) {
    if (await api.storage.find(table, id, rows)) {
      throw new ProblemError(
        'not_deleted',
        `${translation.view.singular} ${id} is not deleted; there is nothing to restore. Read it at its own path.`,
      )
    }
    throw await explainMissing(context, parent)
  }
  reply.header('etag', entityTagOf(table, row))
  await computeWrittenFields(context, row)
  return { data: translation.rowToVersion(row) }
}

async function updateOrFail(
  context: RequestContext,
  values: Row,
  precondition: RowPrecondition | undefined,
): Promise<Row> {
  const { route, grant } = context
  const { api, table } = route
  const parent = await resolveParent(context)
  const id = recordIdOf(context)
  const rows = { ...parent, ...grant.rows }
  const hooks = openWriteHooks(context)
  const written = hooks ? await hooks.beforeUpdate(values, await findRecordOrFail(context)) : values
  const row = await mapWriteErrors(route, async () => {
    await ensureReadableReferences(api.storage, api.tables, table, written, grant)
    return hooks
      ? hooks.update((storage, capture) => storage.update(table, id, written, rows, capture), precondition)
      : api.storage.update(table, id, written, rows, precondition)
  })
  if (!row) throw await explainMissing(context, parent)
  return row
}

/**
 * The 409 of a DELETE that rows of another collection still point at. The
 * count is said only to a caller who may read that whole collection: anyone
 * else would learn how many rows they cannot see (that some exist, the 409
 * itself says: the record cannot go while they do).
 */
export function stillReferenced(context: RequestContext, id: number, error: RowReferencedError): ProblemError {
  const readable = context.grant.readableRowsOf(error.referencingTable)
  const rows =
    readable !== null && Object.keys(readable).length === 0
      ? `${error.count} ${error.count === 1 ? 'row' : 'rows'}`
      : 'rows'
  return new ProblemError(
    'still_referenced',
    `${context.route.translation.view.singular} ${id} is still referenced by ${rows} of ${error.referencingResource}; ` +
      'delete or reassign those first.',
  )
}
