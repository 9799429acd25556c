import type { ApiLimits } from '../contract/api-limits.js'
import { maxPageNumber } from '../contract/api-limits.js'
import type { ListQueryParameters } from './parse-list-query.js'
import type { QueryObject } from './parse-query-string.js'
import { validationFailed, type InvalidParam } from '../problems/problem-error.js'

/** Query parameters of a single-record GET. */
export interface ItemQuery {
  readonly include?: string
}

/**
 * The names and page numbers of a collection query, after rejectRepeated
 * made every other value one string: no name outside `known`, `filter` with
 * brackets, `page` and `per_page` within the bounds the OpenAPI document
 * gives them (from the same limits), defaults filled in.
 */
export function checkListQuery(
  raw: QueryObject,
  known: readonly string[],
  limits: Pick<ApiLimits, 'perPageDefault' | 'perPageMax'>,
): ListQueryParameters {
  const errors = unknownNames(raw, known)
  if (raw.filter !== undefined && typeof raw.filter !== 'object') {
    errors.push({ in: 'query', name: 'filter', detail: 'must be object' })
  }
  const page = readPageNumber(raw, 'page', maxPageNumber(limits.perPageMax), errors)
  const perPage = readPageNumber(raw, 'per_page', limits.perPageMax, errors)
  if (errors.length > 0) throw validationFailed('query', errors)
  return { ...(raw as Record<string, unknown>), page: page ?? 1, per_page: perPage ?? limits.perPageDefault }
}

/** The query of a single-record GET: `include`, when in `known`, and nothing else. */
export function checkItemQuery(raw: QueryObject, known: readonly string[]): ItemQuery {
  const errors = unknownNames(raw, known)
  if (errors.length > 0) throw validationFailed('query', errors)
  return raw as ItemQuery
}

function unknownNames(raw: QueryObject, known: readonly string[]): InvalidParam[] {
  const allowed = known.length > 0 ? known.join(', ') : 'none'
  return Object.keys(raw)
    .filter((name) => !known.includes(name))
    .map((name) => ({ in: 'query', name, detail: `is not a known query parameter; allowed: ${allowed}` }))
}

/** `raw[name]` as a number from 1 to `maximum` (rejectRepeated has checked it is digits), or undefined when absent. */
function readPageNumber(raw: QueryObject, name: string, maximum: number, errors: InvalidParam[]): number | undefined {
  const value = raw[name]
  if (typeof value !== 'string') return undefined
  const number = Number(value)
  if (number < 1) errors.push({ in: 'query', name, detail: 'must be >= 1' })
  else if (number > maximum) errors.push({ in: 'query', name, detail: `must be <= ${maximum}` })
  return number
}
