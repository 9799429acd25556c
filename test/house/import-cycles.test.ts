import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCycle } from './find-cycle.js'

const root = resolve(import.meta.dirname, '..', '..')

/** Every relative import and re-export of a module, type-only ones included: a cycle of types is still a cycle. */
const IMPORT = /^\s*(?:import|export)\b[^'"]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gm

function listModules(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(dir, path))
}

function importsOf(module: string): string[] {
  const source = readFileSync(join(root, module), 'utf8')
  return [...source.matchAll(IMPORT)].map((match) =>
    relative(root, resolve(root, dirname(module), match[1]!)).replace(/\.js$/, '.ts'),
  )
}

describe('the module graph', () => {
  it('has no import cycle in generator/ and runtime/, type-only imports included', () => {
    const modules = [...listModules('generator'), ...listModules('runtime')]
    const graph = new Map(modules.map((module) => [module, importsOf(module)]))
    expect(graph.get(join('runtime', 'contract', 'define-api.ts'))).toContain(
      join('runtime', 'contract', 'api-limits.ts'),
    )
    expect(findCycle(graph)).toBeNull()
  })
})
