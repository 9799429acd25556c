import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'

/**
 * PARENT_UNKNOWN (with a did-you-mean), PARENT_CYCLE (one diagnostic per loop,
 * at the first member's `parent`), ON_DELETE_WITHOUT_PARENT, ON_DELETE_SET_NULL_REQUIRED. Chains of any
 * depth are fine: a grandchild is nested only under its parent's top-level path.
 */
export function checkParents(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources)
  if (resources === null) return
  // A Map, not the record: a parent named `constructor` must not find Object's.
  const parents = new Map<string, string>()
  const names = Object.keys(resources)
  for (const name of names) {
    const resource = asRecord(resources[name])
    const parent = resource?.parent
    if (resource !== null && parent === undefined && resource.on_delete !== undefined) {
      context.report(
        'ON_DELETE_WITHOUT_PARENT',
        `on_delete in resource "${name}" has no effect: it says what deleting the parent does, and "${name}" has no parent; remove it or add parent:`,
        context.atKey(['resources', name, 'on_delete']),
      )
    }
    if (parent !== undefined && resource?.on_delete === 'set_null') {
      context.report(
        'ON_DELETE_SET_NULL_REQUIRED',
        `on_delete: set_null in resource "${name}" cannot work: its parent key is never null; use cascade or restrict, or replace parent: with an optional relation`,
        context.atValue(['resources', name, 'on_delete']),
      )
    }
    if (typeof parent !== 'string') continue
    if (names.includes(parent)) {
      parents.set(name, parent)
      continue
    }
    context.report(
      'PARENT_UNKNOWN',
      `parent ${JSON.stringify(parent)} of resource "${name}" is not a resource in this manifest${hintUnknownName(parent, names, 'declared resources')}`,
      context.atValue(['resources', name, 'parent']),
    )
  }
  reportCycles(context, names, parents)
}

function reportCycles(context: CheckContext, names: readonly string[], parents: ReadonlyMap<string, string>): void {
  const settled = new Set<string>()
  for (const start of names) {
    const chain: string[] = []
    let current: string | undefined = start
    while (current !== undefined && !settled.has(current) && !chain.includes(current)) {
      chain.push(current)
      current = parents.get(current)
    }
    if (current !== undefined && chain.includes(current)) {
      const loop = chain.slice(chain.indexOf(current))
      const first = names.find((name) => loop.includes(name)) ?? current
      context.report('PARENT_CYCLE', describeCycle(first, loop), context.atValue(['resources', first, 'parent']))
    }
    for (const name of chain) settled.add(name)
  }
}

function describeCycle(first: string, loop: readonly string[]): string {
  if (loop.length === 1) return `resource "${first}" is its own parent; a parent must be another resource`
  const from = loop.indexOf(first)
  const ordered = [...loop.slice(from), ...loop.slice(0, from), first]
  return `parent chain of "${first}" loops back to itself (${ordered.join(' → ')}); remove one of these parent: keys`
}
