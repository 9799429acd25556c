import { addOperationFinding, type OperationComparison } from './compare-schemas.js'
import { asList, asNode } from './openapi-node.js'

/** One security requirement: each scheme it names with the scopes it needs (all of them, from every scheme). */
type Requirement = ReadonlyMap<string, ReadonlySet<string>>

/**
 * Compares who may call an operation. Requirements are alternatives (any one
 * suffices), so a caller keeps access when every old requirement still
 * satisfies some new one: anything else tightens (breaking); a new
 * requirement no old one satisfies loosens (additive). `x-restmint-access`
 * adds the owner rule, which limits a caller to their own records.
 * https://spec.openapis.org/oas/v3.1.0#security-requirement-object
 */
export function compareSecurity(comparison: OperationComparison, older: unknown, newer: unknown) {
  const was = readRequirements(asNode(older).security)
  const now = readRequirements(asNode(newer).security)
  const report = (rule: Parameters<typeof addOperationFinding>[1]) =>
    addOperationFinding(comparison, rule, {
      subject: 'security',
      name: 'security',
      before: describe(was),
      after: describe(now),
    })
  if (was.length === 0 && now.length > 0) report('SECURITY_REQUIREMENT_ADDED')
  else if (was.length > 0 && now.length === 0) report('SECURITY_REMOVED')
  else if (was.length > 0) {
    if (was.some((old) => !now.some((requirement) => satisfies(old, requirement)))) report('SECURITY_TIGHTENED')
    else if (now.some((requirement) => !was.some((old) => satisfies(old, requirement)))) report('SECURITY_LOOSENED')
  }
  const ownerBefore = ownerOf(older)
  const ownerAfter = ownerOf(newer)
  if (ownerBefore !== ownerAfter) {
    addOperationFinding(comparison, ownerAfter === null ? 'OWNER_RULE_REMOVED' : 'OWNER_RULE_ADDED', {
      subject: 'access',
      name: 'owner',
      before: ownerBefore === null ? 'any record' : `own records (${ownerBefore})`,
      after: ownerAfter === null ? 'any record' : `own records (${ownerAfter})`,
    })
  }
}

/** Credentials meeting `held` also meet `needed`: it names no other scheme and no other scope. */
function satisfies(held: Requirement, needed: Requirement): boolean {
  return [...needed].every(([scheme, scopes]) => {
    const have = held.get(scheme)
    return have !== undefined && [...scopes].every((scope) => have.has(scope))
  })
}

/** Absent, `[]` and `[{}]` all mean "no credentials needed": no requirement. */
function readRequirements(security: unknown): Requirement[] {
  return asList(security)
    .map(
      (requirement) =>
        new Map(
          Object.entries(asNode(requirement)).map(([scheme, scopes]) => [scheme, new Set(asList(scopes).map(String))]),
        ),
    )
    .filter((requirement) => requirement.size > 0)
}

function describe(requirements: readonly Requirement[]): string {
  if (requirements.length === 0) return 'public'
  return requirements
    .map((requirement) =>
      [...requirement]
        .map(([scheme, scopes]) => (scopes.size > 0 ? `${scheme} [${[...scopes].join(', ')}]` : scheme))
        .join(' and '),
    )
    .join(' or ')
}

/** `owner_sub = sub` when the owner rule applies, else null. */
function ownerOf(operation: unknown): string | null {
  const owner = asNode(asNode(asNode(operation)['x-restmint-access']).owner)
  return typeof owner.field === 'string' ? `${owner.field} = ${String(owner.claim)}` : null
}
