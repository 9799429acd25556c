import { ensureReadableReferences } from '../access/ensure-readable-references.js'
import { limitFilterHops } from '../access/limit-filter-hops.js'
import { includeRelations } from '../include/include-relations.js'
import { ProblemError, validationFailed } from '../problems/problem-error.js'
import { buildCursorLinks, buildPageLinks } from '../query/page-links.js'
import { readListQuery, rejectQuery } from '../query/read-query.js'
import { InvalidValueError, MissingReferenceError } from '../storage/storage-errors.js'
import type { Filter } from '../storage/storage.js'
import { setCacheHeaders } from './cache-headers.js'
import { entityTagOf } from './entity-tag.js'
import { parentFilterOf, resolveParent } from './find-record.js'
import { readDeletedVisibility } from './read-deleted-visibility.js'
import { readBody, rejectMergePatch, withDefaults } from './read-body.js'
import { requestSearch, routePath } from '../http/request-path.js'
import { openRequest, type RequestContext, type RouteContext, type RouteHandler } from './route-context.js'
import { mapWriteErrors } from './write-errors.js'
import { openWriteHooks } from './open-write-hooks.js'
import { resolveLinkScope } from './link-handlers.js'
import { computeFields, computeWrittenFields } from './compute-fields.js'

/** GET on a collection: a page of records (by page number or cursor), with includes, in the version's names. */
export const listRecords: RouteHandler = async (route, request, reply) => {
  const context = openRequest(route, request, reply)
  const { api, translation } = route
  // Cursors are bound to the collection: the route (with its version prefix) and the parent.
  const collectionKey = JSON.stringify([
    request.routeOptions.url,
    route.link ? context.params : parentFilterOf(context),
  ])
  const { parsed, include } = readListQuery(route.query, request.url, collectionKey)
  const deleted = await readDeletedVisibility(context)
  const scope = route.link
    ? await resolveLinkScope(context, route.link)
    : { rowFilter: { ...(await resolveParent(context)), ...context.grant.rows }, filters: [] }
  // Parsed in the version's names (cursors too, bound to its route); the storage takes its columns.
  const sort = parsed.sort.map((key) => ({ ...key, column: translation.columnOf(key.column) }))
  const filters = [...scope.filters, ...storageFilters(context, parsed.filters)]
  const result = await rejectInvalidValues(route, filters, (options) => route.api.storage.list(route.table, options), {
    rowFilter: { ...scope.rowFilter, ...deleted.rows },
    filters,
    sort,
    // One row more than the page tells whether there is a next one.
    limit: parsed.perPage + 1,
    ...(parsed.after ? { after: parsed.after } : { offset: (parsed.page! - 1) * parsed.perPage }),
    count: parsed.count,
    deleted: deleted.visibility,
  })
  const rows = result.rows.slice(0, parsed.perPage)
  const last = rows.at(-1)
  const nextCursor =
    result.rows.length > parsed.perPage && last
      ? api.cursors.encode(parsed.cursorKey, [...sort.map((key) => last[key.column]!), last.id!])
      : null
  const truncated = await includeRelations(
    api.storage,
    api.tables,
    route.table,
    rows,
    include.map(translation.includeOf),
    {
      pointers: rows.map((_, index) => `/data/${index}`),
      itemsMax: api.limits.includeItemsMax,
      prefix: route.prefix,
      readableRowsOf: context.grant.readableRowsOf,
      names: route.includeNames,
    },
  )
  await computeFields(context, rows, include.map(translation.includeOf))
  const data = rows.map(translation.rowToVersion)
  const cut = truncated.length > 0 ? { truncated } : {}
  setCacheHeaders(context, 'list', include, {
    showsDeleted: deleted.visibility !== 'exclude',
    filtersAcrossRelations: parsed.filters.some((filter) => filter.through !== undefined),
  })
  const path = routePath(request)
  const search = requestSearch(request.url)
  // The kind of total the storage gave: `estimated` may come back counted exactly (see Storage.list).
  const counted = result.total === null ? {} : { total: result.total }
  if (parsed.page === null) {
    return {
      data,
      meta: { per_page: parsed.perPage, count: result.count, ...counted, next_cursor: nextCursor, ...cut },
      links: buildCursorLinks(path, search, nextCursor),
    }
  }
  // Only an exact total tells the last page; otherwise the extra row tells whether a next one exists.
  const totalPages = result.count === 'exact' ? Math.ceil(result.total! / parsed.perPage) : null
  return {
    data,
    meta: {
      page: parsed.page,
      per_page: parsed.perPage,
      count: result.count,
      ...counted,
      ...(totalPages === null ? {} : { total_pages: totalPages }),
      next_cursor: nextCursor,
      ...cut,
    },
    links: buildPageLinks(path, search, parsed.page, parsed.perPage, totalPages ?? { hasNext: nextCursor !== null }),
  }
}

/** POST on a collection: 201 with the created record, its `Location` and `ETag`. */
export const createRecord: RouteHandler = async (route, request, reply) => {
  rejectMergePatch(request)
  const context = openRequest(route, request, reply)
  rejectQuery(request.url)
  const { api, table, translation } = route
  const body = readBody(route, route.bodies.create, request.body)
  const parent = await resolveParent(context)
  const hooks = openWriteHooks(context)
  let values = { ...withDefaults(table, translation.bodyToStorage(body, true)), ...parent, ...context.grant.stamp }
  if (hooks) values = { ...(await hooks.beforeCreate(values)), ...parent, ...context.grant.stamp }
  const row = await mapWriteErrors(route, async () => {
    try {
      await ensureReadableReferences(api.storage, api.tables, table, values, context.grant)
      return await (hooks
        ? hooks.create((storage) => storage.insert(table, values))
        : api.storage.insert(table, values))
    } catch (error) {
      // The parent was deleted since resolveParent found it (before the readable-reference check or the
      // insert): looking again answers its 404, not a 400 on a parent key the client never sent.
      if (error instanceof MissingReferenceError && error.column === route.parentLink?.column) {
        await resolveParent(context)
      }
      throw error
    }
  })
  await computeWrittenFields(context, row)
  return reply
    .code(201)
    .header('location', `${routePath(request)}/${row.id}`)
    .header('etag', entityTagOf(table, row))
    .send({ data: translation.rowToVersion(row) })
}

/**
 * A list's or aggregate's parsed filters as the storage takes them: a field
 * of the listed table by its column, a filter across relations (which names
 * the related table's column already) limited to the rows the caller may
 * read of every table it passes (limitFilterHops).
 */
export function storageFilters(context: RequestContext, filters: readonly Filter[]): Filter[] {
  const { translation } = context.route
  return limitFilterHops(
    filters.map((filter) => (filter.through ? filter : { ...filter, column: translation.columnOf(filter.column) })),
    context.grant,
  )
}

/**
 * Runs a list or aggregate query, turning values the storage refuses despite
 * parsing into the client's 400: a filter value it cannot hold (a NUL
 * character, say), or a cursor position it cannot (one signed before the
 * manifest changed).
 */
export async function rejectInvalidValues<Options, Result>(
  route: RouteContext,
  filters: readonly Filter[],
  query: (options: Options) => Promise<Result>,
  options: Options,
): Promise<Result> {
  try {
    return await query(options)
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error
    const field = route.translation.fieldOf(error.column)
    if (filters.some((filter) => filter.column === error.column)) {
      throw validationFailed('query', [{ in: 'query', name: field, detail: error.reason }])
    }
    throw new ProblemError('invalid_cursor', 'The cursor holds a value this collection cannot be sorted by.', {
      errors: [{ in: 'query', name: 'cursor', detail: `${field} ${error.reason}` }],
    })
  }
}
