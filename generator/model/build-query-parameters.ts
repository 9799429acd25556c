import type { ApiLimits } from '../../runtime/contract/api-limits.js'
import type { FilterOperator } from '../../runtime/contract/filter-operator.js'
import { maxPageNumber } from '../../runtime/contract/api-limits.js'
import type { QueryParameterModel, ResourceModel } from './api-model.js'

type QueryRules = Pick<ResourceModel, 'name' | 'sortable' | 'filters' | 'includes' | 'count' | 'aggregate'>

/**
 * The query parameters of a resource's collection GET, in documentation
 * order: `page`, `per_page`, `cursor`, `sort`, `include` (when it has
 * includes), one exact filter `?<field>=` per field that takes `eq`, then
 * `filter[<field>][<operator>]` per filterable field and operator. What both
 * the JSON Schema and the OpenAPI renderers read.
 */
export function buildListQueryParameters(resource: QueryRules, limits: ApiLimits): QueryParameterModel[] {
  const plural = resource.name.replaceAll('-', ' ')
  return [
    {
      kind: 'page',
      name: 'page',
      description: 'Page number, from 1. A page past the end is empty. Not with `cursor`.',
      maximum: maxPageNumber(limits.perPageMax),
      default: 1,
    },
    {
      kind: 'page',
      name: 'per_page',
      description: `Records per page, at most ${limits.perPageMax}.`,
      maximum: limits.perPageMax,
      default: limits.perPageDefault,
    },
    {
      kind: 'cursor',
      name: 'cursor',
      description:
        'Continues a cursor walk: `meta.next_cursor` of the previous page, unchanged, with the same `sort` ' +
        'and filters. Rows inserted or deleted meanwhile are never skipped or repeated. Not with `page`.',
    },
    {
      kind: 'count',
      name: 'count',
      description:
        'How to count the matching records: `exact` (`meta.total`, `total_pages`, a `last` link), `estimated` ' +
        "(the database's estimate as `meta.total`, without `total_pages` or `last`; PostgreSQL's planner " +
        'estimate, while SQLite counts exactly) or `none` (no count; `next` still leads on while there is a ' +
        'next page). `meta.count` says which the response carries. ' +
        (resource.count === 'none'
          ? 'Default: `none`.'
          : `Default: \`${resource.count}\` on page requests, \`none\` on cursor requests.`),
    },
    {
      kind: 'sort',
      name: 'sort',
      description:
        `Fields to sort by, in order, each ascending or, prefixed with \`-\`, descending: ` +
        `${resource.sortable.join(', ')}. \`id\` is always the last key, so the order is total.`,
      fields: resource.sortable,
    },
    ...buildItemQueryParameters(resource, limits),
    ...buildFilterParameters(resource),
  ]
}

/**
 * The query parameters of a resource's aggregates GET (none without
 * `aggregate:`): `group_by`, `aggregate[<field>]` per aggregatable field,
 * `per_page` (up to `groups_max`), `cursor`, then the list's filters.
 */
export function buildAggregateQueryParameters(resource: QueryRules, limits: ApiLimits): QueryParameterModel[] {
  const { aggregate } = resource
  if (aggregate === null) return []
  const plural = resource.name.replaceAll('-', ' ')
  return [
    {
      kind: 'group_by',
      name: 'group_by',
      description:
        `Fields to group the matching ${plural} by, in order (groups are sorted by them, null first): ` +
        `${aggregate.groupBy.join(', ') || 'none'}. Without it, every matching record is one group.`,
      fields: aggregate.groupBy,
    },
    ...Object.entries(aggregate.functions).map(([field, functions]): QueryParameterModel => ({
      kind: 'aggregate',
      name: `aggregate[${field}]`,
      description:
        `Functions of \`${field}\` to compute per group: ${functions.join(', ')}; ` +
        `each group then has \`${field}: { <function>: <value> }\`.`,
      functions,
    })),
    {
      kind: 'page',
      name: 'per_page',
      description: `Groups per page, at most ${aggregate.groupsMax}.`,
      maximum: aggregate.groupsMax,
      default: Math.min(limits.perPageDefault, aggregate.groupsMax),
    },
    {
      kind: 'cursor',
      name: 'cursor',
      description:
        'Continues from `meta.next_cursor` of the previous page of groups, unchanged, with the same ' +
        '`group_by` and filters.',
    },
    ...buildFilterParameters(resource),
  ]
}

function buildFilterParameters(resource: QueryRules): QueryParameterModel[] {
  const plural = resource.name.replaceAll('-', ' ')
  return [
    ...resource.filters
      .filter((filter) => filter.operators.includes('eq'))
      .map(({ field }): QueryParameterModel => ({
        kind: 'filter',
        name: field,
        description: `Only ${plural} whose \`${field}\` equals this value.`,
        form: 'exact',
        field,
        operator: 'eq',
      })),
    ...resource.filters.flatMap(({ field, operators }) =>
      operators.map((operator): QueryParameterModel => ({
        kind: 'filter',
        name: `filter[${field}][${operator}]`,
        description:
          operator === 'null'
            ? `\`true\`: only ${plural} whose \`${field}\` is null; \`false\`: only those where it is not.`
            : `Only ${plural} whose \`${field}\` ${OPERATOR_PHRASES[operator]}.`,
        form: 'operator',
        field,
        operator,
      })),
    ),
  ]
}

/** The query parameters of a resource's item GET: `include`, when it has includes. */
export function buildItemQueryParameters(resource: QueryRules, limits: ApiLimits): QueryParameterModel[] {
  if (resource.includes.length === 0) return []
  return [
    {
      kind: 'include',
      name: 'include',
      description:
        `Relations to embed in each record, under their names, at most ${limits.includeMax}: ` +
        `${resource.includes.join(', ')}.`,
      paths: resource.includes,
      maxItems: limits.includeMax,
    },
  ]
}

const OPERATOR_PHRASES: Readonly<Record<Exclude<FilterOperator, 'null'>, string>> = {
  eq: 'equals this value',
  ne: 'does not equal this value',
  gt: 'is greater (later) than this value',
  gte: 'is at least this value',
  lt: 'is less (earlier) than this value',
  lte: 'is at most this value',
  in: 'is one of these values',
  contains: 'contains this text, ignoring case (`%` and `_` match only themselves)',
  starts_with: 'starts with this text, ignoring case (`%` and `_` match only themselves)',
}
