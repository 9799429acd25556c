import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCycle, importsOf, listModules } from './module-graph.js'

describe('the module graph', () => {
  it('has no import cycle in generator/ and runtime/, type-only imports included', () => {
    const modules = [...listModules('generator'), ...listModules('runtime')]
    const graph = new Map(modules.map((module) => [module, importsOf(module, { dynamic: false })]))
    expect(graph.get(join('runtime', 'contract', 'define-api.ts'))).toContain(
      join('runtime', 'contract', 'api-limits.ts'),
    )
    expect(findCycle(graph)).toBeNull()
  })
})
