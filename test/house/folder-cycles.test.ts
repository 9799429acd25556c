import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCycle, importsOf, listModules } from './module-graph.js'

/** One edge per import that crosses folders: `from` imports `to`, for `module` (which names the import). */
interface FolderImport {
  readonly from: string
  readonly to: string
  readonly module: string
}

/**
 * The folder a module of `tree` belongs to: its first folder under `tree`
 * (`runtime/query/page-cursor.ts` → `runtime/query`), or `tree` itself for
 * the modules at its root.
 */
function folderOf(tree: string, module: string): string {
  const segments = relative(tree, module).split(sep)
  return segments.length > 1 ? join(tree, segments[0]!) : tree
}

function listFolderImports(tree: string): FolderImport[] {
  return listModules(tree).flatMap((module) =>
    importsOf(module, { dynamic: true })
      .filter((target) => !relative(tree, target).startsWith('..'))
      .map((target) => ({ from: folderOf(tree, module), to: folderOf(tree, target), module }))
      .filter((edge) => edge.from !== edge.to),
  )
}

/**
 * The first cycle between folders, as the folders on it (first repeated
 * last), each step naming a module that makes it; or null.
 */
function findFolderCycle(imports: readonly FolderImport[]): string[] | null {
  const graph = new Map<string, string[]>()
  for (const edge of imports) graph.set(edge.from, [...(graph.get(edge.from) ?? []), edge.to])
  const cycle = findCycle(graph)
  if (cycle === null) return null
  const step = (from: string, to: string) => imports.find((edge) => edge.from === from && edge.to === to)!.module
  return cycle.map((folder, index) =>
    index < cycle.length - 1 ? `${folder} (${step(folder, cycle[index + 1]!)}) →` : folder,
  )
}

describe('the folder graph', () => {
  it('finds a planted cycle between folders, and names a module on each step', () => {
    const imports: FolderImport[] = [
      { from: 'runtime/api', to: 'runtime/query', module: 'runtime/api/list-handler.ts' },
      { from: 'runtime/query', to: 'runtime/problems', module: 'runtime/query/parse-list-query.ts' },
      { from: 'runtime/problems', to: 'runtime/api', module: 'runtime/problems/handle-errors.ts' },
      { from: 'runtime/query', to: 'runtime/contract', module: 'runtime/query/parse-list-query.ts' },
    ]
    expect(findFolderCycle(imports)).toEqual([
      'runtime/api (runtime/api/list-handler.ts) →',
      'runtime/query (runtime/query/parse-list-query.ts) →',
      'runtime/problems (runtime/problems/handle-errors.ts) →',
      'runtime/api',
    ])
    expect(findFolderCycle(imports.filter((edge) => edge.from !== 'runtime/problems'))).toBeNull()
  })

  it('reads the imports between runtime folders, dynamic ones included', () => {
    const imports = listFolderImports('runtime')
    expect(imports).toContainEqual({
      from: join('runtime', 'api'),
      to: join('runtime', 'access'),
      module: join('runtime', 'api', 'create-api-plugin.ts'),
    })
  })

  // generator/'s stages still import later stages (model ↔ manifest, …): the stage-order test holds that order.
  // runtime's root holds index.ts alone, the public entry: it imports every folder and no folder imports it.
  it('has no cycle between the folders of runtime/', () => {
    expect(findFolderCycle(listFolderImports('runtime'))).toBeNull()
  })
})
