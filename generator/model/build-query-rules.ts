import type { AggregateRules } from '../../runtime/contract/aggregate-function.js'
import { DEFAULT_LIMITS } from '../../runtime/contract/api-limits.js'
import { isJsonValued, SOFT_DELETE_FIELD } from '../../runtime/contract/field-type.js'
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
 * `count:` falling back to `limits.count`, then `exact`, and `aggregate:`
 * (null without it) with its `groups_max` falling back to
 * `limits.aggregate_groups_max`.
 */
export function buildQueryRules(
  resource: ManifestResource,
  fields: readonly FieldModel[],
  serviceCache: ManifestCache | undefined,
  serviceCount: CountStrategy | undefined,
  serviceGroupsMax: number | undefined,
): Pick<ResourceModel, 'includes' | 'sortable' | 'filters' | 'cacheControl' | 'count' | 'aggregate'> {
  // `deleted_at` is null on every row a list shows unless `?deleted=` asks: sorting or filtering on it is opt-in.
  const defaulted = fields.filter((field) => field.name !== SOFT_DELETE_FIELD)
  const sortable =
    resource.sort ??
    defaulted
      .filter((field) => field.references === null && field.name !== 'id' && !isJsonValued(field.type))
      .map((field) => field.name)
  const filters = resource.filter
    ? Object.entries(resource.filter).map(([field, operators]) => ({ field, operators }))
    : defaulted
        .map((field) => ({
          field: field.name,
          operators: defaultFilterOperators(field),
        }))
        // A json field that cannot be null has no operator.
        .filter(({ operators }) => operators.length > 0)
  const cache = resource.cache ?? serviceCache
  return {
    includes: resource.include ?? [],
    sortable: sortable.includes('id') ? sortable : [...sortable, 'id'],
    filters,
    cacheControl: cache === undefined ? 'no-cache' : `max-age=${cache.max_age}`,
    count: resource.count ?? serviceCount ?? DEFAULT_COUNT_STRATEGY,
    aggregate: resource.aggregate ? buildAggregateRules(resource.aggregate, serviceGroupsMax) : null,
  }
}

function buildAggregateRules(
  aggregate: NonNullable<ManifestResource['aggregate']>,
  serviceGroupsMax: number | undefined,
): AggregateRules {
  return {
    groupBy: aggregate.group_by ?? [],
    functions: aggregate.functions ?? {},
    groupsMax: aggregate.groups_max ?? serviceGroupsMax ?? DEFAULT_LIMITS.aggregate_groups_max,
  }
}
