import { AGGREGATES_SEGMENT } from '../../runtime/contract/resource-routes.js'
import { DELETED_QUERY_NAME } from '../../runtime/contract/query-rules.js'
import { SOFT_DELETE_FIELD } from '../../runtime/contract/field-type.js'
import { RESTORATIONS } from '../../runtime/contract/table-definition.js'
import type { ContractFinding } from './contract-finding.js'
import type { ContractRuleId } from './contract-rules.js'
import { collectionsOf } from './path-key.js'

/** A resource's feature that adds paths, parameters or fields to its versions: `aggregate:` or `soft_delete: true`. */
export interface FeatureAddition {
  readonly kind: 'add_aggregate' | 'add_soft_delete'
  readonly resource: string
}

/** Where `soft_delete: true` shows: the `deleted_at` field and the `?deleted=` parameter. */
const SOFT_DELETE_FIELD_RULES: readonly ContractRuleId[] = ['RESPONSE_FIELD_ADDED', 'SORT_FIELD_ADDED']

/**
 * The feature a finding of a newer contract comes from, when it comes from
 * one: `/posts/aggregates` from `aggregate:` of posts, `/posts/{id}/restorations`,
 * `deleted_at`, `?deleted=` and a DELETE made soft from `soft_delete: true`. Null otherwise.
 */
export function featureAddedBy(finding: ContractFinding): FeatureAddition | null {
  if (finding.rule === 'PATH_ADDED') {
    // Static segments only: the operation is a path with its parameters (`/v1/notes/{id}/restorations`).
    const segments = collectionsOf(finding.operation).filter((segment) => !segment.startsWith('{'))
    const resource = segments.at(-2)
    if (resource === undefined) return null
    if (segments.at(-1) === AGGREGATES_SEGMENT) return { kind: 'add_aggregate', resource }
    if (segments.at(-1) === RESTORATIONS) return { kind: 'add_soft_delete', resource }
    return null
  }
  const softDeleteShows =
    finding.rule === 'DELETE_MADE_SOFT' ||
    (SOFT_DELETE_FIELD_RULES.includes(finding.rule) && finding.name === SOFT_DELETE_FIELD) ||
    (finding.rule === 'QUERY_PARAMETER_ADDED' && finding.name === DELETED_QUERY_NAME)
  return softDeleteShows && finding.resource !== null ? { kind: 'add_soft_delete', resource: finding.resource } : null
}
