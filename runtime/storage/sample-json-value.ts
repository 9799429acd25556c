/**
 * A value the JSON Schema `schema` accepts, made up from its common keywords:
 * `default`, `const`, the first of `enum` or `examples`, else one of its
 * `type` (the first listed) built from its required properties, minimum
 * items, bounds and lengths. Not a solver: `pattern`, `format`, `not`,
 * `allOf` are not read, so a schema relying on them may refuse it; sample
 * rows (seed-sample-rows.ts, build-sample-row.ts) use it, never the API.
 */
export function sampleJsonValue(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema === false ? null : {}
  const keywords = schema as Readonly<Record<string, unknown>>
  for (const keyword of ['default', 'const'] as const) if (Object.hasOwn(keywords, keyword)) return keywords[keyword]
  for (const keyword of ['enum', 'examples'] as const) {
    const values = keywords[keyword]
    if (Array.isArray(values) && values.length > 0) return values[0]
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const members = keywords[keyword]
    if (Array.isArray(members) && members.length > 0) return sampleJsonValue(members[0])
  }
  const type = Array.isArray(keywords.type) ? keywords.type[0] : keywords.type
  switch (type) {
    case 'string': {
      const minimum = typeof keywords.minLength === 'number' ? keywords.minLength : 0
      const maximum = typeof keywords.maxLength === 'number' ? keywords.maxLength : Infinity
      return 'sample'.padEnd(minimum, 'x').slice(0, maximum)
    }
    case 'integer':
    case 'number': {
      const minimum = typeof keywords.minimum === 'number' ? keywords.minimum : 0
      const maximum = typeof keywords.maximum === 'number' ? keywords.maximum : Infinity
      const value = Math.min(Math.max(0, minimum), maximum)
      return type === 'integer' ? Math.ceil(value) : value
    }
    case 'boolean':
      return true
    case 'null':
      return null
    case 'array': {
      const count = typeof keywords.minItems === 'number' ? keywords.minItems : 0
      return Array.from({ length: count }, () => sampleJsonValue(keywords.items ?? {}))
    }
    default: {
      const properties = (keywords.properties ?? {}) as Readonly<Record<string, unknown>>
      const required = Array.isArray(keywords.required) ? keywords.required.map(String) : []
      return Object.fromEntries(required.map((name) => [name, sampleJsonValue(properties[name] ?? {})]))
    }
  }
}
