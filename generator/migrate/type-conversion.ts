import type { FieldType } from '../../runtime/contract/field-type.js'
import type { SnapshotColumn } from '../../runtime/migrations/storage-snapshot.js'

/** What a column stores, as far as converting its values goes: its type, and a decimal's digits. */
export type ColumnShape = Pick<SnapshotColumn, 'type' | 'precision' | 'scale'>

/**
 * Type changes every stored value survives: an integer is a number, anything
 * reads back as its text (as the API writes it: `true`, `2026-11-24`,
 * `2026-11-24T10:00:00.000Z`), a date is that day's midnight UTC, an array is
 * a JSON document. Every other change (string → integer, number → integer,
 * …) narrows: values that do not fit are lost, so `migrate create` needs
 * --allow-data-loss for it. Decimals: see isLosslessDecimal.
 */
const LOSSLESS_CONVERSIONS: Readonly<Record<FieldType, readonly FieldType[]>> = {
  integer: ['number', 'string'],
  number: ['string'],
  boolean: ['string'],
  date: ['datetime', 'string'],
  datetime: ['string'],
  string: [],
  decimal: ['string'],
  json: ['string'],
  array: ['json', 'string'],
}

/** The most digits of a safe integer (2^53 - 1 has 16). */
const SAFE_INTEGER_DIGITS = String(Number.MAX_SAFE_INTEGER).length

export function isLosslessConversion(from: ColumnShape, to: ColumnShape): boolean {
  if (to.type === 'decimal' && (from.type === 'decimal' || from.type === 'integer')) return isLosslessDecimal(from, to)
  return from.type === to.type || LOSSLESS_CONVERSIONS[from.type].includes(to.type)
}

/**
 * A decimal (or an integer, a decimal of scale 0 and up to 16 digits) keeps
 * every value in a decimal with at least as many integer digits and at least
 * as many fraction digits; fewer fraction digits round, fewer integer digits
 * overflow.
 */
function isLosslessDecimal(from: ColumnShape, to: ColumnShape): boolean {
  const { integerDigits, scale } = decimalDigits(from)
  const target = decimalDigits(to)
  return target.integerDigits >= integerDigits && target.scale >= scale
}

function decimalDigits(column: ColumnShape): { integerDigits: number; scale: number } {
  if (column.type === 'integer') return { integerDigits: SAFE_INTEGER_DIGITS, scale: 0 }
  const scale = column.scale ?? 0
  return { integerDigits: (column.precision ?? 0) - scale, scale }
}

/** `decimal(10,2)`, or the type's name: how change descriptions name a column's type. */
export function describeColumnType(column: ColumnShape): string {
  return column.type === 'decimal' ? `decimal(${column.precision},${column.scale ?? 0})` : column.type
}

/** Whether the column's values are stored differently: another type, or a decimal's other digits. */
export function isRetyped(before: ColumnShape, after: ColumnShape): boolean {
  return describeColumnType(before) !== describeColumnType(after)
}
