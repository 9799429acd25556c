/**
 * How a collection GET counts the records matching its filters: `exact`
 * counts them (`meta.total`, `total_pages` and a `last` link), `estimated`
 * takes the database's estimate instead (PostgreSQL: the planner's row
 * estimate; SQLite keeps none for a filtered query, so it counts exactly
 * there and says so), `none` counts nothing. Pages still link to the next one
 * without a count: each page fetches one row more than it shows.
 */
export const COUNT_STRATEGIES = ['exact', 'estimated', 'none'] as const

export type CountStrategy = (typeof COUNT_STRATEGIES)[number]

/** What a collection counts when neither the request (`count=`) nor the manifest (`count:`) says. */
export const DEFAULT_COUNT_STRATEGY: CountStrategy = 'exact'
