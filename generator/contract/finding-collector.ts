import type { ContractFinding } from './contract-finding.js'

/**
 * Gathers findings once each: a component schema reached from several
 * operations (`Post` is listed, read, and embedded in authors' `posts`) is
 * reported where it is nearest the top of a response, under the first
 * operation that reaches it there.
 */
export class FindingCollector {
  private readonly findings = new Map<string, { finding: ContractFinding; depth: number }>()

  /** `key` names the change itself (component and member); `depth` how deep in the body it was found. */
  add(finding: ContractFinding, key: string, depth = 0): void {
    const existing = this.findings.get(key)
    if (existing === undefined || depth < existing.depth) this.findings.set(key, { finding, depth })
  }

  list(): ContractFinding[] {
    return [...this.findings.values()].map(({ finding }) => finding)
  }
}
