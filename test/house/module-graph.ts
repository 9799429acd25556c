import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** The checkout's root: module paths below are relative to it (`generator/model/api-model.ts`). */
export const root = resolve(import.meta.dirname, '..', '..')

/** Relative imports and re-exports, type-only ones included: a cycle of types is still a cycle. */
const STATIC_IMPORT = /^\s*(?:import|export)\b[^'"]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gm
/** The same, and `import('…')` of a module loaded when first needed. */
const ANY_IMPORT = /(?:^\s*(?:import|export)\b[^'"]*?\bfrom\s+|\bimport\(\s*)'(\.{1,2}\/[^']+)'/gm

/** Every TypeScript module under `dir`. */
export function listModules(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(dir, path))
}

/** The modules `module` imports, as paths from the root; `dynamic` counts `import()` too. */
export function importsOf(module: string, { dynamic }: { dynamic: boolean }): string[] {
  const source = readFileSync(join(root, module), 'utf8')
  return [...source.matchAll(dynamic ? ANY_IMPORT : STATIC_IMPORT)].map((match) =>
    relative(root, resolve(root, dirname(module), match[1]!)).replace(/\.js$/, '.ts'),
  )
}

/** The first cycle found by depth-first search, as the modules on it (first repeated last), or null. */
export function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const done = new Set<string>()
  const stack: string[] = []
  const visit = (module: string): string[] | null => {
    const onStack = stack.indexOf(module)
    if (onStack !== -1) return [...stack.slice(onStack), module]
    if (done.has(module)) return null
    stack.push(module)
    for (const target of graph.get(module) ?? []) {
      const cycle = visit(target)
      if (cycle) return cycle
    }
    stack.pop()
    done.add(module)
    return null
  }
  for (const module of graph.keys()) {
    const cycle = visit(module)
    if (cycle) return cycle
  }
  return null
}
