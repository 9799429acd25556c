/** A JSON object within an OpenAPI document, read without trusting its shape. */
export type OpenApiNode = Readonly<Record<string, unknown>>

const EMPTY: OpenApiNode = {}

export function asNode(value: unknown): OpenApiNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as OpenApiNode) : EMPTY
}

export function asList(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : []
}

/**
 * Follows `$ref`s (local ones: `#/components/…`) to the node they name, and
 * returns it with the pointer of the last one followed (null when `value` is
 * not a reference), so a component compared through several operations can
 * be recognised as the same one.
 */
export function resolveNode(document: OpenApiNode, value: unknown): { node: OpenApiNode; pointer: string | null } {
  let node = asNode(value)
  let pointer: string | null = null
  const seen = new Set<string>()
  while (typeof node.$ref === 'string' && !seen.has(node.$ref)) {
    pointer = node.$ref
    seen.add(pointer)
    node = asNode(lookUpPointer(document, pointer))
  }
  return { node, pointer }
}

function lookUpPointer(document: OpenApiNode, pointer: string): unknown {
  if (!pointer.startsWith('#/')) return undefined
  let node: unknown = document
  for (const token of pointer.slice(2).split('/')) {
    node = asNode(node)[token.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return node
}
