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
