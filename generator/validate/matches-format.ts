import { Ajv, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'

/** The JSON Schema formats manifest values are checked against. */
export type CheckedFormat = 'email' | 'uri' | 'uuid' | 'date' | 'date-time'

const ajv = new Ajv({ strict: true })
formatsModule.default(ajv, { formats: ['email', 'uri', 'uuid', 'date', 'date-time'] })
const validators = new Map<CheckedFormat, ValidateFunction>()

/**
 * Whether `value` has `format`, judged by ajv-formats exactly as the generated
 * server's validators judge it, so a default the manifest accepts is one the
 * server accepts too.
 */
export function matchesFormat(format: CheckedFormat, value: string): boolean {
  let validate = validators.get(format)
  if (validate === undefined) {
    validate = ajv.compile({ type: 'string', format })
    validators.set(format, validate)
  }
  return validate(value)
}
