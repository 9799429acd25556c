import { decimalPattern } from '../../runtime/contract/decimal-pattern.js'
import { didYouMean } from '../diagnostics/did-you-mean.js'
import { describeValue } from './describe-value.js'
import { matchesFormat } from './matches-format.js'

const TYPE_CHECKS: Readonly<Record<string, (value: unknown) => string | null>> = {
  string: (value) => {
    if (typeof value !== 'string') return `is not a string${quoteHint(value)}`
    // The storage refuses U+0000 (PostgreSQL text cannot hold it), so neither the API nor a migration could write it.
    return value.includes('\0') ? 'contains a NUL character (U+0000), which no string field can store; remove it' : null
  },
  integer: (value) => {
    if (!Number.isInteger(value)) return 'is not an integer'
    return Number.isSafeInteger(value) ? null : `is outside ±${Number.MAX_SAFE_INTEGER}, the integers the API accepts`
  },
  number: (value) => (typeof value === 'number' && Number.isFinite(value) ? null : 'is not a number'),
  boolean: (value) => (typeof value === 'boolean' ? null : 'is not true or false'),
  date: (value) => (typeof value === 'string' && matchesFormat('date', value) ? null : 'is not a date (YYYY-MM-DD)'),
  datetime: (value) =>
    typeof value === 'string' && matchesFormat('date-time', value)
      ? null
      : 'is not an RFC 3339 date-time (e.g. 2024-01-31T09:30:00Z)',
  decimal: (value) =>
    typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)
      ? null
      : `is not a decimal string such as "12.50"${quoteHint(value)}`,
}

/**
 * Why `value` could not be stored in a field with these options, as a clause
 * (`is less than the minimum 1`), or null when it fits. Looks at the type, the
 * bounds, lengths, pattern and format, and (with `checkEnum`) the enum; options
 * that are themselves broken are skipped, since other rules report them.
 */
export function explainValueMismatch(
  value: unknown,
  field: Readonly<Record<string, unknown>>,
  checkEnum: boolean,
): string | null {
  const typeCheck =
    typeof field.type === 'string' && Object.hasOwn(TYPE_CHECKS, field.type) ? TYPE_CHECKS[field.type] : undefined
  const typeProblem = typeCheck?.(value)
  if (typeProblem) return typeProblem
  if (field.type === 'decimal' && typeof value === 'string' && Number.isInteger(field.precision)) {
    const digits = {
      precision: field.precision as number,
      scale: Number.isInteger(field.scale) ? (field.scale as number) : 0,
    }
    if (!new RegExp(decimalPattern(digits)).test(value))
      return `has more digits than decimal(${digits.precision},${digits.scale}) holds`
  }
  if (typeof value === 'number') {
    if (typeof field.minimum === 'number' && value < field.minimum) return `is less than the minimum ${field.minimum}`
    if (typeof field.maximum === 'number' && value > field.maximum)
      return `is greater than the maximum ${field.maximum}`
  }
  if (typeof value === 'string' && field.type === 'string') {
    const length = [...value].length
    if (typeof field.min_length === 'number' && length < field.min_length)
      return `is shorter than min_length ${field.min_length}`
    if (typeof field.max_length === 'number' && length > field.max_length)
      return `is longer than max_length ${field.max_length}`
    const pattern = typeof field.pattern === 'string' ? compilePattern(field.pattern) : null
    if (pattern instanceof RegExp && !pattern.test(value))
      return `does not match pattern ${JSON.stringify(field.pattern)}`
    if (
      (field.format === 'email' || field.format === 'uri' || field.format === 'uuid') &&
      !matchesFormat(field.format, value)
    ) {
      return `is not a valid ${field.format}`
    }
  }
  if (checkEnum && Array.isArray(field.enum) && !field.enum.includes(value)) {
    const allowed = field.enum.map(describeValue).join(', ')
    const near =
      typeof value === 'string'
        ? didYouMean(
            value,
            field.enum.filter((item) => typeof item === 'string'),
          )
        : null
    return `is not one of the enum values ${allowed}${near === null ? '' : `; did you mean "${near}"?`}`
  }
  return null
}

function quoteHint(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? `; quote it: "${String(value)}"` : ''
}

/**
 * A field's `pattern` as the generated validators will run it: ajv compiles
 * JSON Schema patterns as unicode regular expressions. A broken pattern comes
 * back as the SyntaxError, for RANGE to report.
 */
export function compilePattern(pattern: string): RegExp | SyntaxError {
  try {
    return new RegExp(pattern, 'u')
  } catch (error) {
    return error instanceof SyntaxError ? error : new SyntaxError(String(error))
  }
}
