/**
 * The TypeScript type of the values a JSON Schema accepts, as far as the
 * common keywords tell (type, enum, const, properties, required,
 * additionalProperties, items, anyOf, oneOf, allOf); anything it cannot
 * express is `unknown`, never a type that would promise more than the
 * validator checks. Property names are written as string literals and
 * literals as JSON, so nothing from the manifest reaches the code unquoted.
 */
export function writeTypeOfSchema(schema: unknown): string {
  if (schema === true || schema === undefined) return 'unknown'
  if (schema === false) return 'never'
  if (!isRecord(schema)) return 'unknown'
  if (Object.hasOwn(schema, 'const')) return writeLiteral(schema.const)
  if (Array.isArray(schema.enum)) return union(schema.enum.map(writeLiteral))
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const members = schema[keyword]
    if (Array.isArray(members)) return union(members.map(writeTypeOfSchema))
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((member) => `(${writeTypeOfSchema(member)})`).join(' & ')
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type]
  return union(types.map((type) => writeTypeOfType(type, schema)))
}

function writeTypeOfType(type: unknown, schema: Readonly<Record<string, unknown>>): string {
  switch (type) {
    case 'string':
      return 'string'
    case 'integer':
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      return `(${writeTypeOfSchema(schema.items)})[]`
    case 'object':
      return writeObjectType(schema)
    default:
      return 'unknown'
  }
}

function writeObjectType(schema: Readonly<Record<string, unknown>>): string {
  const properties = isRecord(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
  const members = Object.entries(properties).map(
    ([name, property]) => `${JSON.stringify(name)}${required.has(name) ? '' : '?'}: ${writeTypeOfSchema(property)}`,
  )
  // Extra properties are whatever `additionalProperties` allows (anything, without it): an index signature
  // must admit the declared properties' types too, so it stays `unknown` beside them.
  if (schema.additionalProperties !== false) {
    const extra = members.length === 0 ? writeTypeOfSchema(schema.additionalProperties) : 'unknown'
    members.push(`[key: string]: ${extra}`)
  }
  return `{ ${members.join('; ')} }`
}

function writeLiteral(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? JSON.stringify(value) : 'unknown'
}

function union(members: readonly string[]): string {
  if (members.length === 0) return 'never'
  return [...new Set(members)].join(' | ')
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
