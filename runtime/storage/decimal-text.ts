import { DECIMAL_MAX_PRECISION } from '../contract/field-type.js'
import { RejectedValue } from './rejected-value.js'

/**
 * A decimal as the API reads it: an optional `-`, digits, and optionally a
 * point followed by digits. No `+`, no exponent, no bare `.5` or `5.`:
 * the form every JSON number has in its plain notation, so no client needs
 * a parser of its own to write one.
 */
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/

export const DECIMAL_REASON =
  'must be a decimal string such as "12.50": an optional "-", digits, an optional "." and digits'

/** Sign, integer digits (no leading zeros) and fraction digits (no trailing zeros) of a decimal string. */
interface DecimalParts {
  readonly negative: boolean
  readonly integer: string
  readonly fraction: string
}

function splitDecimal(text: string): DecimalParts {
  if (!DECIMAL_TEXT.test(text)) throw new RejectedValue(DECIMAL_REASON)
  const negative = text.startsWith('-')
  const [integer = '', fraction = ''] = (negative ? text.slice(1) : text).split('.')
  const parts = { integer: integer.replace(/^0+/, ''), fraction: fraction.replace(/0+$/, '') }
  if (parts.integer.length > DECIMAL_MAX_PRECISION || parts.fraction.length > DECIMAL_MAX_PRECISION) {
    throw new RejectedValue(`must have at most ${DECIMAL_MAX_PRECISION} digits before and after the "."`)
  }
  // -0 and -0.00 are zero, which has no sign.
  return { negative: negative && (parts.integer !== '' || parts.fraction !== ''), ...parts }
}

/** Checks a decimal string and returns it in its shortest form (`-012.50` → `-12.5`). Throws RejectedValue. */
export function checkDecimal(value: unknown): string {
  if (typeof value !== 'string') throw new RejectedValue(DECIMAL_REASON)
  const { negative, integer, fraction } = splitDecimal(value)
  return `${negative ? '-' : ''}${integer || '0'}${fraction ? `.${fraction}` : ''}`
}

/** A decimal string with exactly `scale` digits after the point: `12.5` at scale 2 is `12.50`, as NUMERIC(p,2) prints it. */
export function formatDecimal(text: string, scale: number): string {
  const { negative, integer, fraction } = splitDecimal(text)
  const digits = scale === 0 ? '' : `.${fraction.padEnd(scale, '0').slice(0, scale)}`
  return `${negative ? '-' : ''}${integer || '0'}${digits}`
}

const NEGATIVE_END = '~'

/**
 * SQLite has no exact decimal type, so a decimal is stored as text whose
 * byte order (SQLite's BINARY collation) is its numeric order: `=`, `<`,
 * `IN`, ORDER BY and indexes then work unchanged, for any number of digits.
 * Zero is `1`; a positive number is `2`, its count of integer digits as two
 * digits, then its digits; a negative one is `0`, 99 minus that count, its
 * digits each replaced by 9 minus it, and `~` (greater than any digit, so
 * `-1.55` orders before `-1.5`). Trailing fraction zeros are dropped, so
 * `12.5` and `12.50` are the same key. `12.5` → `20212 5` (without the space).
 */
export function encodeDecimalKey(text: string): string {
  const { negative, integer, fraction } = splitDecimal(text)
  if (integer === '' && fraction === '') return '1'
  if (!negative) return `2${String(integer.length).padStart(2, '0')}${integer}${fraction}`
  const complement = (digits: string) => digits.replace(/\d/g, (digit) => String(9 - Number(digit)))
  return `0${String(99 - integer.length).padStart(2, '0')}${complement(integer)}${complement(fraction)}${NEGATIVE_END}`
}

/** The decimal string an encodeDecimalKey key stands for, with `scale` fraction digits. */
export function decodeDecimalKey(key: string, scale: number): string {
  if (key === '1') return formatDecimal('0', scale)
  const negative = key.startsWith('0')
  const body = negative ? key.slice(1, -NEGATIVE_END.length) : key.slice(1)
  const integerLength = negative ? 99 - Number(body.slice(0, 2)) : Number(body.slice(0, 2))
  const digits = negative ? body.slice(2).replace(/\d/g, (digit) => String(9 - Number(digit))) : body.slice(2)
  const integer = digits.slice(0, integerLength) || '0'
  const fraction = digits.slice(integerLength)
  return formatDecimal(`${negative ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`, scale)
}

/**
 * The decimal `text` rounded to `scale` fraction digits (half away from zero,
 * as PostgreSQL rounds a NUMERIC), or null when it is no decimal or has more
 * than `precision - scale` integer digits once rounded: what a migration
 * stores when it converts a value to decimal(precision, scale).
 */
export function fitDecimal(text: string, precision: number, scale: number): string | null {
  let parts: DecimalParts
  try {
    parts = splitDecimal(text)
  } catch (error) {
    if (error instanceof RejectedValue) return null
    throw error
  }
  const kept = `${parts.integer}${parts.fraction.padEnd(scale, '0').slice(0, scale)}`
  const roundsUp = (parts.fraction[scale] ?? '0') >= '5'
  const digits = roundsUp ? incrementDigits(kept) : kept
  const integer = digits.slice(0, digits.length - scale).replace(/^0+/, '')
  if (integer.length > precision - scale) return null
  const fraction = digits.slice(digits.length - scale)
  return formatDecimal(`${parts.negative ? '-' : ''}${integer || '0'}${scale === 0 ? '' : `.${fraction}`}`, scale)
}

/** A string of decimal digits plus one: `199` → `200`, `99` → `100`. */
function incrementDigits(digits: string): string {
  let carry = 1
  let result = ''
  for (let index = digits.length - 1; index >= 0; index--) {
    const sum = Number(digits[index]) + carry
    result = String(sum % 10) + result
    carry = sum >= 10 ? 1 : 0
  }
  return carry === 1 ? `1${result}` : result
}
