import type { Filter } from '../storage/storage.js'
import type { AccessGrant } from './authorize-request.js'

/**
 * `filters` with every table a filter across relations passes limited to the
 * rows the caller may read of it (its read rule, FilterHop.rowFilter): a
 * filter never tells whether a record the caller cannot read exists, nor
 * what it holds. A table the caller may read none of makes its filter match
 * nothing. Tables read whole keep their hop as it was (no condition).
 */
export function limitFilterHops(filters: readonly Filter[], grant: Pick<AccessGrant, 'readableRowsOf'>): Filter[] {
  return filters.map((filter) => {
    if (filter.through === undefined) return filter
    return {
      ...filter,
      through: filter.through.map((hop) => {
        const readable = grant.readableRowsOf(hop.table)
        return readable !== null && Object.keys(readable).length === 0 ? hop : { ...hop, rowFilter: readable }
      }),
    }
  })
}
