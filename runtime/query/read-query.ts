import { AGGREGATE_QUERY_NAMES } from '../contract/aggregate-function.js'
import type { ApiLimits } from '../contract/api-limits.js'
import type { QueryRules } from '../contract/query-rules.js'
import { RESERVED_QUERY_NAMES } from '../contract/query-rules.js'
import type { ResourceRoute } from '../contract/resource-routes.js'
import type { TableDefinition } from '../contract/table-definition.js'
import { parseInclude } from '../include/include-relations.js'
import { ProblemError, validationFailed, type InvalidParam } from '../problems/problem-error.js'
import { checkItemQuery, checkListQuery } from './check-query-names.js'
import type { CursorCodec } from './page-cursor.js'
import { parseAggregateQuery, type ParsedAggregateQuery } from './parse-aggregate-query.js'
import { parseListQuery, type ParsedListQuery } from './parse-list-query.js'
import { parseQueryString } from './parse-query-string.js'

/** What reading one route's query takes: its rules and names, in the version's names, and the API's limits. */
export interface QueryContext {
  readonly rules: QueryRules
  /** The query names the route takes (queryNamesOf). */
  readonly known: readonly string[]
  /** The resource as the route's version names it. */
  readonly table: TableDefinition
  readonly limits: ApiLimits
  readonly cursors: CursorCodec
  /** Every table by name: where filters across relations lead. */
  readonly tables?: ReadonlyMap<string, TableDefinition>
}

/** A collection query, read and checked: the parsed list options and the include paths. */
export interface ListQuery {
  readonly parsed: ParsedListQuery
  readonly include: string[]
}

/**
 * The query names a route takes, worked out once when it is registered: on a
 * collection, the reserved ones (`include` only when something may be
 * included) and each field with an exact filter; on an item, `include` when
 * something may be included.
 */
export function queryNamesOf(rules: QueryRules, kind: ResourceRoute['kind']): string[] {
  const include = rules.includes.length > 0 ? ['include'] : []
  if (kind === 'item') return include
  const exact = Object.entries(rules.filters)
    .filter(([, operators]) => operators.includes('eq'))
    .map(([field]) => field)
  if (kind === 'aggregates') return [...AGGREGATE_QUERY_NAMES, ...exact]
  return [...RESERVED_QUERY_NAMES.filter((name) => name !== 'include' || include.length > 0), ...exact]
}

/**
 * Reads a collection's query from `url`; a bad query is a 400 (or
 * `invalid_cursor`) whether or not the parent exists. `collectionKey` names the
 * collection (route and parent) that cursors are bound to.
 */
export function readListQuery(context: QueryContext, url: string, collectionKey: string): ListQuery {
  const raw = parseQueryString(url)
  rejectRepeated(raw, ['filter'])
  // Before checkListQuery, which fills in the default page.
  const given = Object.keys(raw)
  const query = checkListQuery(raw, context.known, context.limits)
  const parsed = parseListQuery(
    query,
    given,
    context.table,
    context.rules,
    collectionKey,
    context.cursors,
    context.tables,
  )
  const include = parseInclude(query.include, context.rules, context.limits, parsed.errors)
  rejectInvalid(parsed.errors)
  return { parsed, include }
}

/**
 * Reads an aggregates query from `url`, as readListQuery reads a list's: the
 * same filters, `per_page` up to the resource's `groups_max` (default the
 * list's default, when smaller), no `page` (groups are walked by `cursor`).
 */
export function readAggregateQuery(context: QueryContext, url: string, collectionKey: string): ParsedAggregateQuery {
  const aggregate = context.rules.aggregate
  if (aggregate === undefined) throw new Error('internal error: an aggregates route without aggregate rules')
  const raw = parseQueryString(url)
  rejectRepeated(raw, ['filter', 'aggregate'])
  const pages = {
    perPageMax: aggregate.groupsMax,
    perPageDefault: Math.min(context.limits.perPageDefault, aggregate.groupsMax),
  }
  const query = checkListQuery(raw, context.known, pages)
  const parsed = parseAggregateQuery(
    query,
    context.table,
    { ...context.rules, aggregate },
    collectionKey,
    context.cursors,
    context.tables ?? new Map(),
  )
  rejectInvalid(parsed.errors)
  return parsed
}

/** Reads a single record's query from `url`: the include paths. */
export function readItemQuery(context: QueryContext, url: string): string[] {
  const raw = parseQueryString(url)
  rejectRepeated(raw, [])
  const query = checkItemQuery(raw, context.known)
  const errors: InvalidParam[] = []
  const include = parseInclude(query.include, context.rules, context.limits, errors)
  rejectInvalid(errors)
  return include
}

/** Endpoints without query parameters still reject unknown ones, as collections do (and parse them alike). */
export function rejectQuery(url: string): void {
  checkItemQuery(parseQueryString(url), [])
}

/**
 * Checked before names and ranges (check-query-names.ts), whose messages
 * would hide the real mistake: a name repeated where one value belongs (lists were joined by
 * parseQueryString), brackets where one plain value belongs, and page numbers
 * a number parser would read but nobody writes (`1e1`, `0x10`).
 */
function rejectRepeated(raw: Record<string, unknown>, nested: readonly string[]): void {
  const errors: InvalidParam[] = []
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) errors.push({ in: 'query', name, detail: 'is given more than once; give it once' })
    else if (typeof value === 'object' && !nested.includes(name)) {
      errors.push({ in: 'query', name, detail: 'takes a single value, not brackets' })
    } else if (name === 'page' || name === 'per_page') {
      const problem = describePageNumber(String(value))
      if (problem) errors.push({ in: 'query', name, detail: problem })
    }
  }
  if (errors.length > 0) throw validationFailed('query', errors)
}

/** Digits only; checkListQuery then checks the documented range (page up to 90071992547409). */
function describePageNumber(value: string): string | undefined {
  if (!/^\d+$/.test(value)) return 'must be a whole number'
  // Far past any documented maximum (and, past 308 digits, not even a finite number to compare).
  if (value.replace(/^0+/, '').length > 20) return 'is far too large'
  return undefined
}

/** A bad cursor is its own problem (`invalid_cursor`); anything else is a validation failure. */
function rejectInvalid(errors: readonly InvalidParam[]): void {
  if (errors.length === 0) return
  const cursorOnly = errors.every((error) => error.name === 'cursor')
  if (!cursorOnly) throw validationFailed('query', [...errors])
  throw new ProblemError(
    'invalid_cursor',
    'The cursor is malformed, edited, or was issued for another collection, sort or filters.',
    { errors: [...errors] },
  )
}
