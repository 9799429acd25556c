import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'

interface Edge {
  readonly from: string
  readonly to: string
  /** The belongs-to relation making this edge; null for a `parent:`. */
  readonly relation: string | null
}

/**
 * RELATION_CYCLE: foreign keys (parents and belongs-to relations) may not
 * loop between resources, since the storage creates each table after the
 * tables it references. A self-reference is fine. Reported once per loop, at
 * the `resource` of its first relation in manifest order; loops of parents
 * alone are PARENT_CYCLE's.
 */
export function checkReferenceCycles(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  const edges = listEdges(resources)
  const reported = new Set<string>()
  for (const edge of edges) {
    if (edge.relation === null || reported.has(edge.from)) continue
    const back = findPath(edges, edge.to, edge.from)
    if (back === null) continue
    for (const name of findLoopMembers(edges, edge.from)) reported.add(name)
    context.report(
      'RELATION_CYCLE',
      `relation "${edge.relation}" of "${edge.from}" closes a loop of foreign keys (${[edge.from, ...back].join(' → ')}): no order of creating the tables satisfies them; turn one belongs-to of the loop into a has-many (many: true) on the other side`,
      context.atValue(['resources', edge.from, 'relations', edge.relation, 'resource']),
    )
  }
}

function listEdges(resources: Readonly<Record<string, unknown>>): Edge[] {
  const exists = (name: unknown): name is string => typeof name === 'string' && Object.hasOwn(resources, name)
  return Object.entries(resources).flatMap(([from, value]) => {
    const resource = asRecord(value)
    const parent = resource?.parent
    const edges: Edge[] = exists(parent) && parent !== from ? [{ from, to: parent, relation: null }] : []
    for (const [relation, options] of Object.entries(asRecord(resource?.relations) ?? {})) {
      const target = asRecord(options)?.resource
      if (asRecord(options)?.many !== true && exists(target) && target !== from)
        edges.push({ from, to: target, relation })
    }
    return edges
  })
}

/** The resources from `from` to `to` along the edges, both included (shortest first); null when `to` is unreachable. */
function findPath(edges: readonly Edge[], from: string, to: string): string[] | null {
  const previous = new Map<string, string | null>([[from, null]])
  const queue = [from]
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    if (current === to) {
      const path: string[] = []
      for (let step: string | null = to; step !== null; step = previous.get(step) ?? null) path.unshift(step)
      return path
    }
    for (const edge of edges) {
      if (edge.from !== current || previous.has(edge.to)) continue
      previous.set(edge.to, current)
      queue.push(edge.to)
    }
  }
  return null
}

/** Every resource on some loop through `name`: reachable from it and leading back to it. */
function findLoopMembers(edges: readonly Edge[], name: string): string[] {
  const names = new Set(edges.flatMap((edge) => [edge.from, edge.to]))
  return [...names].filter((other) => findPath(edges, name, other) !== null && findPath(edges, other, name) !== null)
}
