import type { FieldType } from '../contract/field-type.js'
import type { ColumnValue, Row, TableDefinition } from '../contract/table-definition.js'
import { checkDate, normalizeDatetime } from './normalize-datetime.js'
import { RejectedValue } from './rejected-value.js'
import { checkDecimal } from './decimal-text.js'
import type { ColumnTypeMapping } from './column-type-mapping.js'

/** Converts a JS value of a column type to what the driver binds. */
export type ValueEncoder = (type: FieldType, value: ColumnValue) => unknown

/** Converts a row as the driver returns it into decoded JS values, in place. */
export type RowDecoder = (row: Record<string, unknown>) => Row

/**
 * Creates the encoder for a dialect: each value is checked against its column
 * type (CHECKS) and datetimes normalized to UTC, the same for every dialect,
 * then the dialect's own encoders apply (e.g. SQLite booleans → 0/1). Throws
 * RejectedValue for a value that one of the databases could not store or
 * compare, or would treat differently from the other.
 */
export function createValueEncoder(mapping: ColumnTypeMapping): ValueEncoder {
  return (type, value) => {
    if (value === null) return null
    const checked = CHECKS[type](value)
    const encode = mapping.encoders[type]
    return encode === undefined ? checked : encode(checked)
  }
}

/** `value` as a column of `type` stores it (a datetime normalized to UTC); throws RejectedValue when it cannot. */
export function checkColumnValue(type: FieldType, value: Exclude<ColumnValue, null>): Exclude<ColumnValue, null> {
  return CHECKS[type](value)
}

export const VALUE_REASONS = {
  integer: `must be an integer between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
  number: 'must be a finite number',
  string: 'must be a string',
  nul: 'must not contain NUL characters (U+0000)',
  surrogate:
    'must not contain unpaired surrogates (U+D800–U+DFFF, such as a lone "\\ud800" escape): only Unicode text is stored',
  boolean: 'must be true or false',
  json: 'must be a JSON value',
  array: 'must be an array',
} as const

/** In a `u` regex a surrogate pair is one code point, so only an unpaired surrogate is one of category Cs. */
const UNPAIRED_SURROGATE = /\p{Cs}/u

/** Why no database text can hold `text` (a NUL, an unpaired surrogate); undefined when one can. */
export function unstorableTextReason(text: string): string | undefined {
  if (text.includes('\u0000')) return VALUE_REASONS.nul
  if (UNPAIRED_SURROGATE.test(text)) return VALUE_REASONS.surrogate
  return undefined
}

/**
 * What each column type accepts, alike on every dialect:
 * - integer: safe integers only. PostgreSQL's bigint would take up to 2^63 but
 *   reads back through a JS number (inexact beyond 2^53) and refuses more;
 *   SQLite would store a larger number as REAL.
 * - number: finite numbers (PostgreSQL would store Infinity, SQLite NaN as NULL).
 * - string: no NUL character, which PostgreSQL text cannot hold (SQLite can),
 *   and no unpaired surrogate, which is not Unicode: the drivers would each
 *   store a different replacement for it.
 * - date: a real date, years 0001–9999; datetime: see normalizeDatetime.
 * - decimal: a decimal string (decimal-text.ts), in its shortest form: the
 *   dialects pad it to the column's scale.
 * - json and array: a JSON document whose strings hold no NUL and no unpaired
 *   surrogate (PostgreSQL's jsonb refuses both).
 * - every type: a JS value of that type, never another one the database might
 *   convert (PostgreSQL reads the string 'false' as a boolean, SQLite as 1).
 */
const CHECKS: Readonly<Record<FieldType, (value: Exclude<ColumnValue, null>) => Exclude<ColumnValue, null>>> = {
  integer: (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new RejectedValue(VALUE_REASONS.integer)
    return value
  },
  number: (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new RejectedValue(VALUE_REASONS.number)
    return value
  },
  string: (value) => {
    if (typeof value !== 'string') throw new RejectedValue(VALUE_REASONS.string)
    const unstorable = unstorableTextReason(value)
    if (unstorable !== undefined) throw new RejectedValue(unstorable)
    return value
  },
  boolean: (value) => {
    if (typeof value !== 'boolean') throw new RejectedValue(VALUE_REASONS.boolean)
    return value
  },
  date: checkDate,
  datetime: normalizeDatetime,
  decimal: checkDecimal,
  json: (value) => checkJsonText(value),
  array: (value) => {
    if (!Array.isArray(value)) throw new RejectedValue(VALUE_REASONS.array)
    return checkJsonText(value)
  },
}

/** Walks a JSON document and refuses what a string column would refuse, anywhere in it (keys included). */
function checkJsonText<Value>(value: Value): Value {
  const visit = (node: unknown): void => {
    if (typeof node === 'string') CHECKS.string(node)
    else if (typeof node === 'number' && !Number.isFinite(node)) throw new RejectedValue(VALUE_REASONS.number)
    else if (Array.isArray(node)) node.forEach(visit)
    else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        CHECKS.string(key)
        visit(item)
      }
    } else if (node !== null && typeof node !== 'number' && typeof node !== 'boolean') {
      throw new RejectedValue(VALUE_REASONS.json)
    }
  }
  visit(value)
  return value
}

/**
 * Creates the decoder for one table's rows. Only columns whose type the dialect
 * decodes are touched, so a table without such columns costs nothing.
 */
export function createRowDecoder(table: TableDefinition, mapping: ColumnTypeMapping): RowDecoder {
  const decoded = table.columns.flatMap((column) => {
    const decodeAs = mapping.decoders[column.type]
    return decodeAs === undefined ? [] : [{ name: column.name, decode: (value: unknown) => decodeAs(value, column) }]
  })
  if (decoded.length === 0) return (row) => row as Row
  return (row) => {
    for (const { name, decode } of decoded) {
      const value = row[name]
      if (value !== null && value !== undefined) row[name] = decode(value)
    }
    return row as Row
  }
}
