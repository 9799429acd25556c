/**
 * The value as a string-keyed map, or null when it is not one (lists, scalars,
 * null). Checks read manifest data that may not have passed the schema, so
 * they look at it only through this.
 */
export function asRecord(value: unknown): Readonly<Record<string, unknown>> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  return value as Readonly<Record<string, unknown>>
}
