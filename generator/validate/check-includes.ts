import { asRecord } from '../manifest/as-record.js'
import { DEFAULT_LIMITS } from '../../runtime/contract/api-limits.js'
import type { CheckContext } from './check-context.js'
import { hintUnknownName } from './describe-value.js'

/**
 * The `include:` whitelist of each resource, at the offending entry:
 * INCLUDE_DEPTH (more segments than `limits.include_depth`), INCLUDE_UNKNOWN
 * (a segment that is not a relation of the resource reached so far, with a
 * did-you-mean), INCLUDE_PREFIX (`items.product` without `items`). Paths
 * through a relation whose target is unknown are left to
 * RELATION_TARGET_UNKNOWN.
 */
export function checkIncludes(context: CheckContext, data: unknown): void {
  const manifest = asRecord(data)
  const resources = asRecord(manifest?.resources) ?? {}
  const declaredDepth = asRecord(manifest?.limits)?.include_depth
  const maxDepth =
    Number.isInteger(declaredDepth) && Number(declaredDepth) >= 1 ? Number(declaredDepth) : DEFAULT_LIMITS.include_depth
  for (const [name, value] of Object.entries(resources)) {
    const include = asRecord(value)?.include
    if (!Array.isArray(include)) continue
    include.forEach((path: unknown, index) => {
      if (typeof path !== 'string') return
      const at = context.atValue(['resources', name, 'include', index])
      const segments = path.split('.')
      if (segments.length > maxDepth) {
        context.report(
          'INCLUDE_DEPTH',
          `include path "${path}" of resource "${name}" has ${segments.length} segments, more than limits.include_depth (${maxDepth}); shorten it to "${segments.slice(0, maxDepth).join('.')}", or raise limits.include_depth`,
          at,
        )
        return
      }
      const unknown = explainUnknownSegment(resources, name, path)
      if (unknown !== null) {
        context.report('INCLUDE_UNKNOWN', unknown, at)
        return
      }
      const prefix = segments.slice(0, -1).join('.')
      if (prefix !== '' && !include.includes(prefix)) {
        context.report(
          'INCLUDE_PREFIX',
          `include path "${path}" of resource "${name}" expands "${prefix}", which is not in the list itself; add "${prefix}" to include:`,
          at,
        )
      }
    })
  }
}

/** Why a segment of `path`, followed from resource `start`, names no relation; null when every segment does (or cannot be judged). */
function explainUnknownSegment(
  resources: Readonly<Record<string, unknown>>,
  start: string,
  path: string,
): string | null {
  let current = start
  for (const segment of path.split('.')) {
    if (segment === '') {
      return `include path "${path}" of resource "${start}" has an empty segment; write relation names separated by single dots`
    }
    const relations = asRecord(asRecord(resources[current])?.relations) ?? {}
    if (!Object.hasOwn(relations, segment)) {
      const names = Object.keys(relations)
      const hint =
        names.length === 0
          ? `, which has no relations; declare one under relations: of "${current}"`
          : hintUnknownName(segment, names, `its relations`)
      const where =
        segment === path
          ? `include path "${path}" of resource "${start}"`
          : `"${segment}" in include path "${path}" of resource "${start}"`
      return `${where} is not a relation of "${current}"${hint}`
    }
    const target = asRecord(relations[segment])?.resource
    if (typeof target !== 'string' || !Object.hasOwn(resources, target)) return null
    current = target
  }
  return null
}
