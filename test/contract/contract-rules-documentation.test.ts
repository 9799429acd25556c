import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTRACT_RULES } from '../../generator/contract/contract-rules.js'

describe('contract rules documentation', () => {
  const documentation = readFileSync(join(import.meta.dirname, '../../docs/contract-rules.md'), 'utf8')
  const sections = documentation.split(/^## /m)
  const documented = (heading: string) =>
    new Map(
      [
        ...(sections.find((section) => section.startsWith(heading)) ?? '').matchAll(
          /^\| `([A-Z_]+)` +\| .+ \| (.+?) +\|$/gm,
        ),
      ].map((match) => [match[1]!, match[2]!]),
    )
  const breaking = documented('Breaking')
  const additive = documented('Additive')

  it('documents every rule under its severity, with its fix', () => {
    for (const [rule, { severity, fix }] of Object.entries(CONTRACT_RULES)) {
      expect((severity === 'breaking' ? breaking : additive).get(rule), rule).toBe(fix)
    }
  })

  it('documents no rule that does not exist', () => {
    expect([...breaking.keys(), ...additive.keys()].sort()).toEqual(Object.keys(CONTRACT_RULES).sort())
  })
})
