import { DELETED_QUERY_NAME, DELETED_VISIBILITIES, type DeletedVisibility } from '../contract/query-rules.js'
import { ProblemError, validationFailed } from '../problems/problem-error.js'
import { parseQueryString } from '../query/parse-query-string.js'
import type { RowFilter } from '../storage/storage.js'
import type { RequestContext } from './route-context.js'

/** Which records a read of a soft-deleting resource sees, and the rows the `deleted` rule limits it to. */
export interface DeletedAccess {
  readonly visibility: DeletedVisibility
  readonly rows: RowFilter
}

/** What a request without `?deleted=` sees: live records. */
export const LIVE_ONLY: DeletedAccess = { visibility: 'exclude', rows: {} }

/**
 * `?deleted=include|only` on a list or read of a soft-deleting resource:
 * 400 for another value, and only for callers the resource's `deleted`
 * access rule admits (401 without credentials, 403 naming the parameter
 * otherwise). Without the parameter, live records only.
 */
export async function readDeletedVisibility(context: RequestContext): Promise<DeletedAccess> {
  const { route, request } = context
  // The version's view: a version that predates soft delete (add_soft_delete) sees live records only.
  if (route.translation.view.softDelete !== true) return LIVE_ONLY
  const raw = parseQueryString(request.url)[DELETED_QUERY_NAME]
  if (raw === undefined) return LIVE_ONLY
  if (typeof raw !== 'string' || !(DELETED_VISIBILITIES as readonly string[]).includes(raw)) {
    throw validationFailed('query', [
      { in: 'query', name: DELETED_QUERY_NAME, detail: `must be one of ${DELETED_VISIBILITIES.join(', ')}` },
    ])
  }
  try {
    const grant = await route.api.access.authorize(request, route.table.name, 'deleted')
    return { visibility: raw as DeletedVisibility, rows: grant.rows }
  } catch (error) {
    if (!(error instanceof ProblemError) || error.code !== 'forbidden') throw error
    throw new ProblemError(
      'forbidden',
      `?${DELETED_QUERY_NAME}=${raw} shows deleted ${route.translation.view.resource}, which these credentials may not see. ${error.detail} Leave out ?${DELETED_QUERY_NAME}= to see the live ones.`,
      {
        ...(error.extra.headers ? { headers: error.extra.headers } : {}),
        errors: [{ in: 'query', name: DELETED_QUERY_NAME, detail: 'not granted to this caller' }],
      },
    )
  }
}
