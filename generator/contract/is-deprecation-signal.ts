import type { ContractFinding } from './contract-finding.js'

/** `response field meta`, `response 400 field meta.sunset`: the members a deprecated version's bodies gain. */
const DEPRECATION_META = /^response (\d{3} )?field meta(\.deprecated|\.sunset)?$/

/**
 * Whether a finding between a deprecated version and its successor is only
 * the deprecation signal itself: the older version's bodies carry
 * `meta.deprecated` and `meta.sunset` (a `meta` object where a current
 * version's item bodies have none) because it is deprecated, not because
 * its contract differs. Such findings are neither declared nor breaking.
 */
export function isDeprecationSignal(finding: ContractFinding): boolean {
  return DEPRECATION_META.test(finding.subject)
}
