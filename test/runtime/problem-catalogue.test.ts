import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROBLEM_CATALOGUE } from '../../runtime/index.js'

describe('problem catalogue', () => {
  const documentation = readFileSync(join(import.meta.dirname, '../../docs/problems.md'), 'utf8')
  const documented = new Map(
    [...documentation.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((match) => [match[1]!, Number(match[2])]),
  )

  it('documents every code with its status in docs/problems.md', () => {
    for (const [code, { status }] of Object.entries(PROBLEM_CATALOGUE)) {
      expect(documented.get(code), code).toBe(status)
    }
  })

  it('documents no code that does not exist', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(PROBLEM_CATALOGUE).sort())
  })
})
