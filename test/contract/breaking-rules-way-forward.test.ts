import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CONTRACT_RULES, type ContractRuleId } from '../../generator/contract/contract-rules.js'
import { versionDocumentPath } from '../../generator/contract/version-documents.js'
import { REPO } from '../support/copy-checkout.js'
import { checkContracts, projectWith, renderContracts } from './check-contracts.js'
import { BASE, SCENARIOS, withV2, type Document, type Scenario } from './breaking-rule-scenarios.js'

/**
 * Issue 18, item 1: every breaking rule `check` reports has a way forward.
 * For each breaking rule ID docs/contract-rules.md documents, a scenario
 * breaks the published v1 of BASE that way. Either a change kind declares it
 * (check names that kind; v2 declaring it passes check, and
 * breaking-rules-served.test.ts serves both versions), or the finding names
 * only the rule's fix, which is then the one way out.
 */

/** v1's document as BASE generates it, with the scenario's edit of the published document. */
async function publishedDocument(scenario: Scenario): Promise<string> {
  const document = (await renderContracts(projectWith(BASE))).files.get(versionDocumentPath('v1'))!
  if (!scenario.editPublished) return document
  const edited = JSON.parse(document) as Document
  scenario.editPublished(edited)
  return JSON.stringify(edited, null, 2)
}

const BREAKING_IDS = (Object.keys(CONTRACT_RULES) as ContractRuleId[]).filter(
  (rule) => CONTRACT_RULES[rule].severity === 'breaking',
)

describe('every breaking rule has a way forward', () => {
  it('has a scenario for every breaking rule ID documented in docs/contract-rules.md, and the catalogue for each', () => {
    const docs = readFileSync(join(REPO, 'docs/contract-rules.md'), 'utf8')
    const breakingTable = docs.slice(docs.indexOf('## Breaking'), docs.indexOf('## Additive'))
    const documented = [...breakingTable.matchAll(/^\| `([A-Z_]+)`/gm)].map(([, id]) => id)
    expect(documented.sort()).toEqual([...BREAKING_IDS].sort())
    expect(SCENARIOS.map(({ rule }) => rule).sort()).toEqual([...BREAKING_IDS].sort())
  })

  it('either a change kind declares the break and check passes, or check names only the fix that works', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SCENARIOS), async (scenario) => {
        const published = await publishedDocument(scenario)
        const broken = scenario.edit ? scenario.edit(BASE) : BASE
        const before = await checkContracts(broken, published)
        expect(before.exitCode, before.report).toBe(1)
        const lines = before.report.split('\n').filter((line) => line.includes(`: ${scenario.rule}: `))
        expect(lines.length, before.report).toBeGreaterThan(0)
        if (scenario.change === undefined) {
          const { fix } = CONTRACT_RULES[scenario.rule]
          for (const line of lines) {
            expect(line).toContain(`no \`changes\` entry of a new major version can declare it, so ${fix}`)
            expect(line).not.toContain('add v2')
          }
          return
        }
        const kind = scenario.change.slice(0, scenario.change.indexOf(':'))
        for (const line of lines) expect(line).toContain(`add v2 with a \`${kind}\` entry in its \`changes\``)
        const after = await checkContracts(withV2(broken, scenario.change), published)
        expect(after.report).toContain('v1 → v2: the breaking differences are the 1 declared in versions.v2.changes.')
        expect(after, after.report).toMatchObject({ exitCode: 0 })
      }),
      // Each rule once (the examples count as runs), then a few random draws.
      { examples: SCENARIOS.map((scenario) => [scenario]), numRuns: SCENARIOS.length + 4 },
    )
  }, 60_000)
})
