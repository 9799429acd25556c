import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ACTION_VERBS, RULES } from '../../generator/validate/rules.js'

const docs = readFileSync(new URL('../../docs/diagnostics.md', import.meta.url), 'utf8')
const documented = [...docs.matchAll(/^### ([A-Z][A-Z0-9_]*)$/gm)].map((match) => match[1])

describe('rule catalogue and docs/diagnostics.md', () => {
  it('documents every rule ID', () => {
    expect(Object.keys(RULES).filter((id) => !documented.includes(id))).toEqual([])
  })

  it('documents no code that does not exist', () => {
    expect(documented.filter((id) => id === undefined || !Object.hasOwn(RULES, id))).toEqual([])
  })

  it('uses SCREAMING_SNAKE_CASE IDs, each with a purpose', () => {
    for (const [id, purpose] of Object.entries(RULES)) {
      expect(id).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/)
      expect(purpose.length).toBeGreaterThan(10)
    }
  })

  it('lists every action verb in the docs, under its position rule', () => {
    const anywhere = /Flagged in any position: `([^`]*)`/.exec(docs)?.[1]?.split(' ') ?? []
    const last = /^- Flagged only as the last word.*`([^`]*)`\.$/m.exec(docs)?.[1]?.split(' ') ?? []
    const byPosition = (position: string) =>
      Object.entries(ACTION_VERBS)
        .filter(([, verb]) => verb.position === position)
        .map(([word]) => word)
    expect(anywhere).toEqual(byPosition('anywhere'))
    expect(last).toEqual(byPosition('last'))
  })
})
