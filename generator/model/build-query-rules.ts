import { SOFT_DELETE_FIELD } from '../../runtime/contract/field-type.js'
import { DEFAULT_COUNT_STRATEGY, type CountStrategy } from '../../runtime/contract/count-strategy.js'
import type { ManifestCache, ManifestResource } from '../manifest/manifest.js'
import type { FieldModel, ResourceModel } from './api-model.js'
import { defaultFilterOperators } from './default-filter-operators.js'

/**
 * What clients may do with a resource's query string, with the defaults
 * filled in: `sort:` (default every field but foreign keys; `id` always
 * added), `filter:` (default every field, see defaultFilterOperators),
 * `include:` (default none),
 * `cache:` falling back to the manifest's top-level `cache`, then `no-cache`,
 * and `count:` falling back to `limits.count`, then `exact`.
 */
export function buildQueryRules(
  resource: ManifestResource,
  fields: readonly FieldModel[],
  serviceCache: ManifestCache | undefined,
  serviceCount: CountStrategy | undefined,
): Pick<ResourceModel, 'includes' | 'sortable' | 'filters' | 'cacheControl' | 'count'> {
  // `deleted_at` is null on every row a list shows unless `?deleted=` asks: sorting or filtering on it is opt-in.
  const defaulted = fields.filter((field) => field.name !== SOFT_DELETE_FIELD)
  const sortable =
    resource.sort ??
    defaulted.filter((field) => field.references === null && field.name !== 'id').map((field) => field.name)
  const filters = resource.filter
    ? Object.entries(resource.filter).map(([field, operators]) => ({ field, operators }))
    : defaulted.map((field) => ({
        field: field.name,
        operators: defaultFilterOperators(field),
      }))
  const cache = resource.cache ?? serviceCache
  return {
    includes: resource.include ?? [],
    sortable: sortable.includes('id') ? sortable : [...sortable, 'id'],
    filters,
    cacheControl: cache === undefined ? 'no-cache' : `max-age=${cache.max_age}`,
    count: resource.count ?? serviceCount ?? DEFAULT_COUNT_STRATEGY,
  }
}
