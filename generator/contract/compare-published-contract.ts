import { compareContracts } from './compare-contracts.js'
import type { ContractFinding } from './contract-finding.js'
import { isDeprecatedDocument, isDeprecationSignal } from './is-deprecation-signal.js'

/**
 * The differences between a version's published contract and its document
 * as generated now. Deprecating a published version is how its clients are
 * told to move on, not a change of its contract: once the current document is
 * deprecated, the `meta` its bodies gain for it is left out.
 */
export function comparePublishedContract(published: unknown, current: unknown): ContractFinding[] {
  const findings = compareContracts(published, current)
  return isDeprecatedDocument(current) ? findings.filter((finding) => !isDeprecationSignal(finding)) : findings
}
