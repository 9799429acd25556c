import { sql, type Expression } from 'kysely'
import { isLosslessConversion, isRetyped, type ColumnShape } from './type-conversion.js'

/** A dialect's SQL for converting stored values between field types; every expression keeps NULL as NULL. */
export interface ValueConversions {
  /**
   * The text the API would have written for the value, were the field a string (`42`, `1.5`, `true`,
   * `2026-11-24`, `2026-11-24T10:00:00.000Z`, `12.50`; a document's JSON text).
   */
  toText(column: ColumnShape, value: Expression<unknown>): Expression<unknown>
  /**
   * The stored value of `column` that the text reads as, or NULL when it is not one the API accepts
   * (a decimal: rounded to its scale, NULL when its integer digits do not fit).
   */
  fromText(column: ColumnShape, text: Expression<unknown>): Expression<unknown>
  integerToNumber(value: Expression<unknown>): Expression<unknown>
  /** Midnight UTC of the day. */
  dateToDatetime(value: Expression<unknown>): Expression<unknown>
  /** The UTC day of the instant (the time of day is lost). */
  datetimeToDate(value: Expression<unknown>): Expression<unknown>
}

/**
 * The magnitudes a text converts to a number at, on every dialect: the normal doubles. Beyond them a value
 * does not survive exactly (Infinity, 0 for `1e-400`, or lost digits), so it converts as text that is no
 * number does: to NULL, then the backfill.
 */
export const NUMBER_RANGE = {
  smallest: sql.lit(2.2250738585072014e-308),
  largest: sql.lit(Number.MAX_VALUE),
}

/**
 * A stored value of type `from` as type `to`. Lossless changes
 * (isLosslessConversion) convert every value as the API would have written
 * it; the others go through the value's text and give NULL for a value
 * whose text is no value of `to` (`abc` or `1.5` as an integer), so the
 * migration fails on a NOT NULL column unless a backfill replaces it.
 */
export function convertColumnValue(
  conversions: ValueConversions,
  from: ColumnShape,
  to: ColumnShape,
  value: Expression<unknown>,
): Expression<unknown> {
  if (!isRetyped(from, to)) return value
  // The same JSON document: jsonb stays jsonb, text stays text.
  if (from.type === 'array' && to.type === 'json') return value
  // A wider decimal holds the same number: PostgreSQL's numeric widens as is; SQLite's key is the same.
  if (from.type === 'decimal' && to.type === 'decimal' && isLosslessConversion(from, to)) return value
  if (to.type === 'string') return conversions.toText(from, value)
  if (from.type === 'integer' && to.type === 'number') return conversions.integerToNumber(value)
  if (from.type === 'date' && to.type === 'datetime') return conversions.dateToDatetime(value)
  if (from.type === 'datetime' && to.type === 'date') return conversions.datetimeToDate(value)
  return conversions.fromText(to, conversions.toText(from, value))
}
