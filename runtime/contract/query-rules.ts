import type { AggregateRules } from './aggregate-function.js'
import type { CountStrategy } from './count-strategy.js'
import type { FilterOperator } from './filter-operator.js'

/**
 * What clients may do with a resource's query string, generated from the
 * manifest's `sort:`, `filter:`, `include:` and `cache:` (routes files pass it
 * to registerResource, which reads list and item queries with them).
 */
export interface QueryRules {
  /** Sortable fields; always includes `id`. */
  readonly sortable: readonly string[]
  /** Filterable fields and the operators each accepts. */
  readonly filters: Readonly<Record<string, readonly FilterOperator[]>>
  /** Whitelisted include paths: `author`, `items.product`. */
  readonly includes: readonly string[]
  /** The `Cache-Control` value of GET responses: `no-cache` or `max-age=60`. */
  readonly cacheControl: string
  /**
   * What page-number requests count without `count=` (the manifest's `count:`,
   * else `limits.count`); absent for DEFAULT_COUNT_STRATEGY. Cursor requests
   * count only when they ask.
   */
  readonly count?: CountStrategy
  /** The manifest's `aggregate:`: what `GET /<resource>/aggregates` takes; absent without one (and the route). */
  readonly aggregate?: AggregateRules
}

/**
 * Query parameters of a collection GET that are not exact filters
 * (`?<field>=`): a field of one of these names could not be filtered that way,
 * so the manifest refuses it. In the order error messages list them.
 */
export const RESERVED_QUERY_NAMES = ['page', 'per_page', 'cursor', 'count', 'sort', 'include', 'filter'] as const

/** The query parameter of a soft-deleting resource's lists and reads: `include` or `only` shows deleted records. */
export const DELETED_QUERY_NAME = 'deleted'
export const DELETED_VISIBILITIES = ['include', 'only'] as const
/** Which records a read sees: live ones (`exclude`, without `?deleted=`), all, or only soft-deleted ones. */
export type DeletedVisibility = 'exclude' | (typeof DELETED_VISIBILITIES)[number]
