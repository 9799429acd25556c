import { asList, asNode, resolveNode, type OpenApiNode } from './openapi-node.js'

/** A JSON Schema as the comparison sees it: references followed and `null` taken out of its type. */
export interface SchemaShape {
  readonly schema: OpenApiNode
  /** The component it came from (`#/components/schemas/Post`); null for an inline schema. */
  readonly pointer: string | null
  /** `string (date-time)`, `integer`, `object`, `array`; `any` when the schema names no type. */
  readonly type: string
  readonly nullable: boolean
}

/**
 * Reads the shapes restmint renders: `type: [string, null]` for a nullable
 * field, and `anyOf: [{ $ref }, { type: null }]` for a nullable embedded record.
 */
export function shapeOf(document: OpenApiNode, value: unknown): SchemaShape {
  const { node, pointer } = resolveNode(document, value)
  const branches = asList(node.anyOf).map(asNode)
  const nonNull = branches.filter((branch) => branch.type !== 'null')
  if (branches.length > 0 && nonNull.length === 1) {
    const inner = shapeOf(document, nonNull[0])
    return { ...inner, pointer: inner.pointer ?? pointer, nullable: inner.nullable || nonNull.length < branches.length }
  }
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter(
    (type): type is string => typeof type === 'string',
  )
  const named = types.filter((type) => type !== 'null')
  const format = typeof node.format === 'string' ? ` (${node.format})` : ''
  return {
    schema: node,
    pointer,
    type: named.length === 0 ? 'any' : `${named.sort().join(' | ')}${format}`,
    nullable: types.includes('null'),
  }
}
