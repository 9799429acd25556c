import type { AccessOperation } from '../../runtime/contract/access-rule.js'
import type { VersionChange, VersionChangeKind } from '../versions/version-change.js'
import { foreignKeyOf, singularOf } from '../names/derive-names.js'
import type { ContractFinding } from './contract-finding.js'
import { compareContracts } from './compare-contracts.js'
import type { ContractRuleId } from './contract-rules.js'
import { featureAddedBy } from './feature-added-by.js'
import { collectionsOf } from './path-key.js'

export interface DeclaredChangesReport {
  /** Breaking differences between the versions that no declared change explains. */
  readonly undeclared: readonly ContractFinding[]
  /** Declared changes the difference does not show. */
  readonly unseen: readonly VersionChange[]
}

/** A field gone (or renamed) from bodies, and from the query parameters that name it. */
const FIELD_GONE: readonly ContractRuleId[] = [
  'REQUEST_FIELD_REMOVED',
  'REQUEST_FIELD_RENAMED',
  'RESPONSE_FIELD_REMOVED',
  'RESPONSE_FIELD_RENAMED',
  'FILTER_OPERATOR_REMOVED',
  'SORT_FIELD_REMOVED',
  'QUERY_PARAMETER_REMOVED',
]

/** A field new in bodies, and in the query parameters that name it: what a frozen version leaves out. */
const FIELD_NEW: readonly ContractRuleId[] = [
  'REQUEST_FIELD_ADDED',
  'REQUEST_FIELD_REQUIRED_ADDED',
  'RESPONSE_FIELD_ADDED',
  'FILTER_OPERATOR_ADDED',
  'SORT_FIELD_ADDED',
  'QUERY_PARAMETER_ADDED',
]

/** What a new resource adds to the others: keys, embedded records and include paths naming it. */
const ADDITIONS: readonly ContractRuleId[] = [...FIELD_NEW, 'INCLUDE_PATH_ADDED']

/** Fewer callers, or fewer of their records, allowed an operation. */
const ACCESS_NARROWED: readonly ContractRuleId[] = [
  'SECURITY_REQUIREMENT_ADDED',
  'SECURITY_TIGHTENED',
  'OWNER_RULE_ADDED',
]

/**
 * Matches the breaking differences between two consecutive versions' OpenAPI
 * documents with the changes the newer version declares: every breaking
 * finding must be explained by a change, and every change must explain one
 * (an addition the older version leaves out explains it too once that
 * version is frozen).
 */
export function checkDeclaredChanges(
  olderDocument: unknown,
  newerDocument: unknown,
  changes: readonly VersionChange[],
  { olderFrozen = false }: { readonly olderFrozen?: boolean } = {},
): DeclaredChangesReport {
  const findings = compareContracts(olderDocument, newerDocument)
  const breaking = findings.filter(({ severity }) => severity === 'breaking')
  // What a frozen version leaves out of newer additions (add_field, add_resource, add_aggregate, add_soft_delete)
  // shows as additive differences.
  const explainable = olderFrozen ? findings : breaking
  return {
    undeclared: breaking.filter((finding) => !changes.some((change) => explains(change, finding))),
    unseen: changes.filter((change) => !explainable.some((finding) => explains(change, finding))),
  }
}

function explains(change: VersionChange, finding: ContractFinding): boolean {
  switch (change.kind) {
    case 'rename_field':
      return (
        finding.resource === change.resource &&
        ((FIELD_GONE.includes(finding.rule) && finding.name === change.from) ||
          (finding.rule === 'REQUEST_FIELD_REQUIRED_ADDED' && finding.name === change.to))
      )
    case 'remove_field':
      return finding.resource === change.resource && FIELD_GONE.includes(finding.rule) && finding.name === change.field
    case 'add_field':
      return finding.resource === change.resource && FIELD_NEW.includes(finding.rule) && finding.name === change.field
    case 'rename_resource':
      return (
        (finding.rule === 'RESOURCE_RENAMED' && finding.name === change.from) || namesResource(finding, change.from)
      )
    case 'reroot_resource':
      return (
        finding.rule === 'RESOURCE_REROOTED' &&
        finding.resource === change.resource &&
        finding.name === change.fromParent
      )
    case 'remove_resource':
      return (
        (finding.rule === 'PATH_REMOVED' && collectionsOf(finding.operation).includes(change.resource)) ||
        namesResource(finding, change.resource)
      )
    case 'add_resource':
      return (
        (finding.rule === 'PATH_ADDED' && collectionsOf(finding.operation).includes(change.resource)) ||
        (ADDITIONS.includes(finding.rule) && namesResource(finding, change.resource, ADDITIONS))
      )
    case 'add_aggregate':
    case 'add_soft_delete': {
      const added = featureAddedBy(finding)
      return added?.kind === change.kind && added.resource === change.resource
    }
    case 'change_access':
      return (
        finding.resource === change.resource &&
        ACCESS_NARROWED.includes(finding.rule) &&
        (change.operation === 'all' || accessOperationOf(finding.operation) === change.operation)
      )
  }
}

/** The access operation an OpenAPI operation (`PATCH /v2/posts/{id}`) is: by method, and collection or item path. */
function accessOperationOf(operation: string): AccessOperation | null {
  const [method, path = ''] = operation.split(' ')
  const item = path.endsWith('}')
  switch (method) {
    case 'GET':
      return item ? 'read' : 'list'
    case 'POST':
      return 'create'
    case 'PUT':
    case 'PATCH':
      return 'update'
    case 'DELETE':
      return 'delete'
    default:
      return null
  }
}

/**
 * The change kind a new major version declares a breaking finding with: one
 * that explains it, as some finding of the same comparison suggests the
 * change (its resource, field, collection or operation); null when none
 * does, and the finding can only be undone (the rule's fix).
 */
export function declaringChangeKind(
  finding: ContractFinding,
  findings: readonly ContractFinding[],
): VersionChangeKind | null {
  return findings.flatMap(suggestChanges).find((change) => explains(change, finding))?.kind ?? null
}

/** The changes that would declare a finding, named from it (`why` and `was` do not matter for matching). */
function suggestChanges(finding: ContractFinding): VersionChange[] {
  const resource = finding.resource ?? ''
  const why = ''
  switch (finding.rule) {
    case 'RESOURCE_RENAMED':
      return [{ kind: 'rename_resource', from: finding.name, to: '', why }]
    case 'RESOURCE_REROOTED':
      return [{ kind: 'reroot_resource', resource, fromParent: finding.name, why }]
    case 'PATH_REMOVED':
      return collectionsOf(finding.operation).map((collection) => ({
        kind: 'remove_resource',
        resource: collection,
        was: {},
        why,
      }))
    case 'RESPONSE_FIELD_RENAMED':
    case 'REQUEST_FIELD_RENAMED':
      return [{ kind: 'rename_field', resource, from: finding.name, to: '', why }]
    case 'RESPONSE_FIELD_REMOVED':
    case 'REQUEST_FIELD_REMOVED':
      return [
        {
          kind: 'remove_field',
          resource,
          field: finding.name,
          was: { type: 'string' },
          filter: null,
          sort: false,
          why,
        },
      ]
    case 'REQUEST_FIELD_REQUIRED_ADDED':
      return [{ kind: 'add_field', resource, field: finding.name, olderValue: null, why }]
    case 'SECURITY_REQUIREMENT_ADDED':
    case 'SECURITY_TIGHTENED':
    case 'OWNER_RULE_ADDED':
      return [{ kind: 'change_access', resource, operation: 'all', was: 'public', why }]
    default:
      return []
  }
}

/**
 * What renaming or removing a resource changes in the others: the foreign key
 * naming it (`author_id`), the embedded records named after it (`author`,
 * `posts`), and the include paths through it (`author`, `posts.author`).
 */
function namesResource(finding: ContractFinding, resource: string, fieldRules = FIELD_GONE): boolean {
  const singular = singularOf(resource)
  if (finding.rule === 'INCLUDE_PATH_REMOVED' || finding.rule === 'INCLUDE_PATH_ADDED') {
    return finding.name.split('.').some((segment) => segment === singular || segment === resource)
  }
  const names = [foreignKeyOf(resource), singular, resource]
  return fieldRules.includes(finding.rule) && names.includes(finding.name)
}
