import fc from 'fast-check'

/** The part of a generated body schema (components.schemas.<Type>Create) the arbitraries read. */
export interface BodySchema {
  readonly properties: Readonly<Record<string, PropertySchema>>
  readonly required?: readonly string[]
}

interface PropertySchema {
  readonly type: string | readonly string[]
  readonly maxLength?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly enum?: readonly (string | number | null)[]
  readonly default?: unknown
}

/** Room left in unique strings for the caller's distinguishing prefix. */
export const UNIQUE_PREFIX_ROOM = 12

/**
 * Bodies a create schema accepts, for round-trip properties: each property
 * (but `fixed` ones, which the caller sets) optional unless required.
 * Strings of the `unique` properties leave UNIQUE_PREFIX_ROOM characters for a
 * prefix that keeps them apart. Formats (dates) are not generated: a schema
 * with one throws, so a test never silently skips a field.
 */
export function arbitraryBody(
  schema: BodySchema,
  { fixed = [], unique = [] }: { fixed?: readonly string[]; unique?: readonly string[] } = {},
): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(schema.properties).filter(([name]) => !fixed.includes(name))
  const arbitraries = Object.fromEntries(
    entries.map(([name, property]) => [name, arbitraryValue(name, property, unique.includes(name))]),
  )
  const requiredKeys = (schema.required ?? []).filter((name) => !fixed.includes(name))
  return fc.record(arbitraries, { requiredKeys })
}

/** What a record holds for each property after a create of `sent`: the value sent, else its default, else null. */
export function expectedRecord(schema: BodySchema, sent: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => [
      name,
      name in sent ? sent[name] : (property.default ?? null),
    ]),
  )
}

function arbitraryValue(name: string, property: PropertySchema, unique: boolean): fc.Arbitrary<unknown> {
  const types = typeof property.type === 'string' ? [property.type] : property.type
  const value = arbitraryOfType(
    name,
    property,
    types.find((type) => type !== 'null')!,
    unique,
  )
  return types.includes('null') ? fc.option(value, { nil: null }) : value
}

function arbitraryOfType(name: string, property: PropertySchema, type: string, unique: boolean): fc.Arbitrary<unknown> {
  if (property.enum) return fc.constantFrom(...property.enum.filter((value) => value !== null))
  const min = property.minimum ?? -1_000_000_000
  const max = Math.min(property.maximum ?? 1_000_000_000, 1_000_000_000)
  switch (type) {
    case 'string':
      if ('format' in property) throw new Error(`arbitraryBody: ${name} has a format, which is not generated`)
      return fc.string({ maxLength: (property.maxLength ?? 100) - (unique ? UNIQUE_PREFIX_ROOM : 0) })
    case 'integer':
      return fc.integer({ min, max })
    case 'number':
      // JSON has no negative zero: it would come back as 0.
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((number) => number + 0)
    case 'boolean':
      return fc.boolean()
    default:
      throw new Error(`arbitraryBody: ${name} has type ${type}, which is not generated`)
  }
}
