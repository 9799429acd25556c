import { CONTRACT_RULES, type ContractRuleId, type ContractSeverity } from './contract-rules.js'

/** One difference between a published contract and the current one. */
export interface ContractFinding {
  readonly rule: ContractRuleId
  readonly severity: ContractSeverity
  /** `GET /v1/posts`, or the path alone (`/v1/posts`) when the whole path is concerned. */
  readonly operation: string
  /** What changed within the operation: `response field data[].title`, `query parameter sort`; empty for a path. */
  readonly subject: string
  readonly before: string
  readonly after: string
  readonly fix: string
  /** The resource the operation serves (its OpenAPI tag), for matching declared changes; null when untagged. */
  readonly resource: string | null
  /** The field, parameter field, sort field, include path or collection concerned (`title`, `author.posts`). */
  readonly name: string
}

export function createFinding(
  rule: ContractRuleId,
  fields: Omit<ContractFinding, 'rule' | 'severity' | 'fix'>,
): ContractFinding {
  const { severity, fix } = CONTRACT_RULES[rule]
  return { rule, severity, ...fields, fix }
}

/** `RESPONSE_FIELD_REMOVED: GET /v1/posts: response field data[].body: string → (absent)` */
export function formatFinding(finding: ContractFinding): string {
  const where = finding.subject === '' ? finding.operation : `${finding.operation}: ${finding.subject}`
  return `${finding.rule}: ${where}: ${finding.before} → ${finding.after}`
}

/**
 * A breaking finding of a published version, with the ways out that work: a
 * new major version declaring it with `changeKind` (null when no change kind
 * can declare it), or undoing it.
 */
export function formatBreakingFinding(
  finding: ContractFinding,
  nextVersion: string,
  changeKind: string | null,
): string {
  if (changeKind === null) {
    return `${formatFinding(finding)}; no \`changes\` entry of a new major version can declare it, so ${finding.fix}`
  }
  return (
    `${formatFinding(finding)}; this change needs a new major version: ` +
    `add ${nextVersion} with a \`${changeKind}\` entry in its \`changes\`, or ${finding.fix}`
  )
}
