import type { StringFormat } from './field-type.js'
import { ajvRuntime } from './validator.js'

/** The generated validators' own format checks (ajv-formats), so filters, bodies and sample rows agree. */
export function matchesFormat(format: StringFormat, value: string): boolean {
  const check = ajvRuntime.formats[format]
  if (check instanceof RegExp) return check.test(value)
  if (typeof check === 'function') return (check as (data: string) => boolean)(value)
  throw new Error(`internal error: no check for format ${format}`)
}
