import { ACCESS_OPERATIONS, type AccessOperation } from '../../runtime/contract/access-rule.js'
import type { Manifest, ManifestAccessAlternative, ManifestResource } from '../manifest/manifest.js'

/**
 * Whether the newer resource lets fewer callers, or fewer of their records,
 * do `operation` (`all`: any operation) than the older one: what `restmint
 * check` reports as SECURITY_REQUIREMENT_ADDED, SECURITY_TIGHTENED or
 * OWNER_RULE_ADDED, judged from the manifest alone. Alternatives are any-of,
 * so access narrows when some older alternative is covered by no newer one.
 */
export function narrowsAccess(
  manifest: Manifest,
  older: ManifestResource,
  newer: ManifestResource,
  operation: AccessOperation | 'all',
): boolean {
  const operations = operation === 'all' ? ACCESS_OPERATIONS : [operation]
  return operations.some((each) => {
    const now = alternativesOf(manifest, newer, each)
    return alternativesOf(manifest, older, each).some((was) => !now.some((rule) => covers(rule, was)))
  })
}

/** The operation's rule: its own, else `all`, else `auth.default` (public when unset), as alternatives. */
function alternativesOf(
  manifest: Manifest,
  resource: ManifestResource,
  operation: AccessOperation,
): ManifestAccessAlternative[] {
  const rule = resource.access?.[operation] ?? resource.access?.all ?? manifest.auth?.default ?? 'public'
  return Array.isArray(rule) ? rule : [rule]
}

/** Every caller `was` lets in, `rule` lets in too, to as many records. */
function covers(rule: ManifestAccessAlternative, was: ManifestAccessAlternative): boolean {
  if (rule === 'public') return true
  if (was === 'public') return false
  if (rule === 'authenticated') return true
  if (rule === 'owner') return was === 'owner'
  if (typeof was === 'string') return false
  return (
    (rule.scheme === undefined || rule.scheme === was.scheme) &&
    rule.scopes.every((scope) => was.scopes.includes(scope))
  )
}
