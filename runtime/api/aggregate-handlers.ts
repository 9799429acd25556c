import type { ColumnValue } from '../contract/table-definition.js'
import { requestSearch, routePath } from '../http/request-path.js'
import { buildCursorLinks } from '../query/page-links.js'
import { readAggregateQuery } from '../query/read-query.js'
import type { AggregateGroup, AggregateOptions } from '../storage/storage.js'
import { rejectInvalidValues, storageFilters } from './collection-handlers.js'
import { setCacheHeaders } from './cache-headers.js'
import { parentFilterOf, resolveParent } from './find-record.js'
import { openRequest, type RouteHandler } from './route-context.js'

/**
 * GET on a collection's aggregates: one page of groups of the records the
 * list would return with the same filters (and parent, and access rules),
 * each with its grouping values, `count` and the requested aggregates by
 * field: `{ status: 'draft', count: 3, price: { sum: '30', avg: 10 } }`.
 * Groups are sorted by their grouping values and walked by cursor; a page
 * holds at most `per_page` groups (at most the resource's `groups_max`).
 */
export const aggregateRecords: RouteHandler = async (route, request, reply) => {
  const context = openRequest(route, request, reply)
  const { api, translation } = route
  const collectionKey = JSON.stringify([request.routeOptions.url, parentFilterOf(context)])
  const parsed = readAggregateQuery(route.query, request.url, collectionKey)
  const rowFilter = { ...(await resolveParent(context)), ...context.grant.rows }
  const filters = storageFilters(context, parsed.filters)
  const groups = await rejectInvalidValues(route, filters, (options) => api.storage.aggregate(route.table, options), {
    rowFilter,
    filters,
    groupBy: parsed.groupBy.map(translation.columnOf),
    aggregates: parsed.aggregates.map((term) => ({ ...term, column: translation.columnOf(term.column) })),
    // One group more than the page tells whether there is a next one.
    limit: parsed.perPage + 1,
    ...(parsed.after ? { after: parsed.after } : {}),
  })
  const page = groups.slice(0, parsed.perPage)
  const last = page.at(-1)
  const nextCursor = groups.length > parsed.perPage && last ? api.cursors.encode(parsed.cursorKey, last.keys) : null
  setCacheHeaders(context, 'list', [], {
    filtersAcrossRelations: parsed.filters.some((filter) => filter.through !== undefined),
  })
  return {
    data: page.map((group) => formatGroup(group, parsed.groupBy, parsed.aggregates)),
    meta: { per_page: parsed.perPage, next_cursor: nextCursor },
    links: buildCursorLinks(routePath(request), requestSearch(request.url), nextCursor),
  }
}

/** A group in the version's names: grouping fields, `count`, then `{ <fn>: value }` per aggregated field. */
function formatGroup(
  group: AggregateGroup,
  groupBy: readonly string[],
  aggregates: readonly { readonly column: string; readonly fn: string }[],
): Record<string, unknown> {
  const formatted: Record<string, unknown> = {}
  groupBy.forEach((field, index) => (formatted[field] = group.keys[index]))
  formatted.count = group.count
  aggregates.forEach(({ column, fn }, index) => {
    const results = (formatted[column] ??= {}) as Record<string, ColumnValue>
    results[fn] = group.values[index]!
  })
  return formatted
}
