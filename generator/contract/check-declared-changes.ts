import type { VersionChange } from '../versions/version-change.js'
import { foreignKeyOf, singularOf } from '../names/derive-names.js'
import type { ContractFinding } from './contract-finding.js'
import { compareContracts } from './compare-contracts.js'
import type { ContractRuleId } from './contract-rules.js'
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

/**
 * Matches the breaking differences between two consecutive versions' OpenAPI
 * documents with the changes the newer version declares: every breaking
 * finding must be explained by a change, and every change must explain one.
 */
export function checkDeclaredChanges(
  olderDocument: unknown,
  newerDocument: unknown,
  changes: readonly VersionChange[],
): DeclaredChangesReport {
  const breaking = compareContracts(olderDocument, newerDocument).filter(({ severity }) => severity === 'breaking')
  return {
    undeclared: breaking.filter((finding) => !changes.some((change) => explains(change, finding))),
    unseen: changes.filter((change) => !breaking.some((finding) => explains(change, finding))),
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
      return (
        finding.resource === change.resource &&
        finding.rule === 'REQUEST_FIELD_REQUIRED_ADDED' &&
        finding.name === change.field
      )
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
  }
}

/**
 * What renaming or removing a resource changes in the others: the foreign key
 * naming it (`author_id`), the embedded records named after it (`author`,
 * `posts`), and the include paths through it (`author`, `posts.author`).
 */
function namesResource(finding: ContractFinding, resource: string): boolean {
  const singular = singularOf(resource)
  if (finding.rule === 'INCLUDE_PATH_REMOVED') {
    return finding.name.split('.').some((segment) => segment === singular || segment === resource)
  }
  const names = [foreignKeyOf(resource), singular, resource]
  return FIELD_GONE.includes(finding.rule) && names.includes(finding.name)
}
