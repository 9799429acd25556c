import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importsOf, listModules, root } from './module-graph.js'

/**
 * The stages of generator/, earliest first: a module may import its own
 * stage and earlier ones, never a later one nor a sibling on the same rank.
 * `.` is generator/'s own files (generate.ts, load-project.ts: the pipeline).
 * The pipeline runs manifest → versions → validate → model → render, and hands
 * what render gives to emit; as a module emit is a base layer that writes
 * files and knows nothing of what they hold, so render's cache and migrate's
 * writer use it and it imports no stage. contract/ and migrate/ read the model
 * beside render; cli/ sits on top.
 */
const STAGES: readonly (readonly string[])[] = [
  ['diagnostics'],
  ['names'],
  ['emit'],
  ['manifest'],
  ['versions'],
  ['validate'],
  ['model'],
  ['render', 'contract', 'migrate'],
  ['.'],
  ['cli'],
]

/** The stage of a module under generator/ (`model`, or `.` for its own files); null outside generator/. */
function stageOf(module: string): string | null {
  const path = relative('generator', module)
  if (path.startsWith('..')) return null
  const [first, ...rest] = path.split('/')
  return rest.length === 0 ? '.' : first!
}

function rankOf(stage: string): number {
  const rank = STAGES.findIndex((stages) => stages.includes(stage))
  if (rank === -1) throw new Error(`generator/${stage}/ is in no stage of STAGES: add it where it belongs`)
  return rank
}

/** Every import of `graph` that reaches a later stage or a sibling one, as `from → to`. */
function findStageViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const violations: string[] = []
  for (const [module, imports] of graph) {
    const from = stageOf(module)
    if (from === null) continue
    for (const target of imports) {
      const to = stageOf(target)
      if (to === null || to === from) continue
      if (rankOf(to) >= rankOf(from)) violations.push(`${module} (${from}) → ${target} (${to})`)
    }
  }
  return violations
}

describe('the stages of generator/', () => {
  it('import only earlier stages', () => {
    const modules = listModules('generator')
    const graph = new Map(modules.map((module) => [module, importsOf(module, { dynamic: true })]))
    expect(graph.get(join('generator', 'model', 'build-model.ts'))).toContain(
      join('generator', 'versions', 'derive-versions.ts'),
    )
    expect(findStageViolations(graph)).toEqual([])
  })

  it('finds an import of a later stage, and one of a sibling stage', () => {
    const graph = new Map([
      ['generator/model/build-model.ts', ['generator/versions/derive-versions.ts', 'runtime/define-api.ts']],
      ['generator/validate/check-derived-versions.ts', ['generator/model/build-model.ts']],
      ['generator/migrate/storage-model.ts', ['generator/render/render-project.ts']],
    ])
    expect(findStageViolations(graph)).toEqual([
      'generator/validate/check-derived-versions.ts (validate) → generator/model/build-model.ts (model)',
      'generator/migrate/storage-model.ts (migrate) → generator/render/render-project.ts (render)',
    ])
  })

  it('places every folder of generator/ in a stage', () => {
    const folders = readdirSync(join(root, 'generator'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
    for (const folder of folders) expect(() => rankOf(folder)).not.toThrow()
  })
})
