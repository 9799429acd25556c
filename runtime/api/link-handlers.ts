import { ensureReadableReferences } from '../access/ensure-readable-references.js'
import { routePath } from '../http/request-path.js'
import { ProblemError } from '../problems/problem-error.js'
import { rejectQuery } from '../query/read-query.js'
import type { Filter, RowFilter } from '../storage/storage.js'
import { entityTagOf } from './entity-tag.js'
import { resolveParent } from './find-record.js'
import { readBody, rejectMergePatch, withDefaults } from './read-body.js'
import { openRequest, type LinkContext, type RequestContext, type RouteHandler } from './route-context.js'
import { mapWriteErrors } from './write-errors.js'
import { openWriteHooks } from './open-write-hooks.js'
import { computeWrittenFields } from './compute-fields.js'
import { stillReferenced } from './item-handlers.js'
import { MissingReferenceError, RowReferencedError } from '../storage/storage-errors.js'

/**
 * What a list of linked records selects: the target's rows the caller may
 * read, having a link to the path's source that the caller may list (an
 * EXISTS on the join within its `list` rule's rows, so a record linked twice
 * still comes once). 404 when the source is not there or not readable, 403
 * when the caller may read no target record.
 */
export async function resolveLinkScope(
  context: RequestContext,
  link: LinkContext,
): Promise<{ readonly rowFilter: RowFilter; readonly filters: readonly Filter[] }> {
  const sourceId = await findSource(context, link)
  const readable = context.grant.readableRowsOf(link.target.name)
  if (readable === null) throw new ProblemError('forbidden', `This caller may not read ${link.target.resource}.`)
  const linked: Filter = {
    column: link.sourceParam,
    operator: 'eq',
    value: sourceId,
    through: [
      {
        table: link.join.name,
        column: link.targetParam,
        outerColumn: 'id',
        ...(link.join.softDelete === true ? { live: true as const } : {}),
        // The route is the join's list: its rule's rows (an owner's links) are the links it shows.
        ...(Object.keys(context.grant.rows).length > 0 ? { rowFilter: context.grant.rows } : {}),
      },
    ],
  }
  return { rowFilter: readable, filters: [linked] }
}

/**
 * POST on a many-to-many: links an existing target record (the join's create
 * body, its source key from the path). 201 with the join record; `Location`
 * is its top-level path. A link that exists already is a 409 naming both
 * keys (the join's composite unique); a target that does not exist is the
 * 400 of any missing reference, naming the target key. It creates a join
 * record as a POST on the join's own path does: the join's hooks
 * (beforeCreate, afterCreate in the insert's transaction, afterCommit) and
 * computed fields.
 */
export const createLink: RouteHandler = async (route, request, reply) => {
  rejectMergePatch(request)
  const context = openRequest(route, request, reply)
  rejectQuery(request.url)
  const { api, table } = route
  const body = readBody(route, route.bodies.create, request.body)
  const source = await resolveParent(context)
  const hooks = openWriteHooks(context)
  let values = { ...withDefaults(table, body), ...source, ...context.grant.stamp }
  // What the hook returns, but the source's key (the path's) and the owner (the caller's) stay.
  if (hooks) values = { ...(await hooks.beforeCreate(values)), ...source, ...context.grant.stamp }
  const row = await mapWriteErrors(route, async () => {
    try {
      await ensureReadableReferences(api.storage, api.tables, table, values, context.grant)
      return await (hooks
        ? hooks.create((storage) => storage.insert(table, values))
        : api.storage.insert(table, values))
    } catch (error) {
      // The source was deleted since resolveParent found it: its 404, as createRecord answers.
      if (error instanceof MissingReferenceError && error.column === route.parentLink?.column) {
        await resolveParent(context)
      }
      throw error
    }
  })
  await computeWrittenFields(context, row)
  return reply
    .code(201)
    .header('location', `${route.prefix}/${table.resource}/${row.id}`)
    .header('etag', entityTagOf(table, row))
    .send({ data: row })
}

/**
 * DELETE on a linked record: removes the link (204), never the record; 404
 * when the two are not linked. It deletes the join record as a DELETE on the
 * join's own path does: the join's hooks (beforeDelete, afterDelete in the
 * delete's transaction, afterCommit), and 409 while rows of another
 * collection still reference it.
 */
export const removeLink: RouteHandler = async (route, request, reply) => {
  const context = openRequest(route, request, reply)
  rejectQuery(request.url)
  const link = route.link!
  const { api } = route
  const source = await resolveParent(context)
  const targetId = context.params[link.targetParam]!
  const rowFilter = { ...source, [link.targetParam]: targetId, ...context.grant.rows }
  const { rows } = await api.storage.list(link.join, { rowFilter, limit: 1, count: 'none' })
  const found = rows[0]
  let deleted = false
  if (found !== undefined) {
    const id = found.id as number
    const hooks = openWriteHooks(context)
    if (hooks) await hooks.beforeDelete(found)
    try {
      deleted = await (hooks
        ? hooks.delete((storage, capture) => storage.delete(link.join, id, context.grant.rows, capture), undefined)
        : api.storage.delete(link.join, id, context.grant.rows))
    } catch (error) {
      if (!(error instanceof RowReferencedError)) throw error
      throw stillReferenced(context, id, error)
    }
  }
  if (!deleted) {
    throw new ProblemError(
      'not_found',
      `${link.source.singular} ${context.params[link.sourceParam]} is not linked to ${link.target.singular} ${targetId}.`,
    )
  }
  return reply.code(204).send()
}

async function findSource(context: RequestContext, link: LinkContext): Promise<number> {
  const sourceId = context.params[link.sourceParam]!
  const readable = context.grant.readableRowsOf(link.source.name)
  if (readable === null || !(await context.route.api.storage.find(link.source, sourceId, readable))) {
    throw new ProblemError('not_found', `No ${link.source.singular} with id ${sourceId}.`)
  }
  return sourceId
}
