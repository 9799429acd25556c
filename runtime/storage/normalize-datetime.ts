/**
 * Returns an RFC 3339 datetime as the UTC form `toISOString()` gives
 * (`2026-01-01T08:00:00.000Z`), so equal instants are stored identically and,
 * as text in SQLite, sort chronologically.
 *
 * A value already in that form with valid fields (what the storage itself
 * returns, e.g. a keyset cursor's datetime) is returned as it is, skipping
 * the parse and format that cost most of a cheap query's overhead.
 */
export function normalizeDatetime(value: unknown): string {
  if (typeof value === 'string' && isCanonical(value)) return value
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN
  if (Number.isNaN(time)) {
    throw new TypeError(`expected an RFC 3339 datetime, got ${JSON.stringify(value)}`)
  }
  return new Date(time).toISOString()
}

/** Whether toISOString() would give `value` back: `YYYY-MM-DDTHH:MM:SS.sssZ` with every field in range. */
function isCanonical(value: string): boolean {
  if (value.length !== 24) return false
  for (let index = 0; index < 24; index++) {
    const code = value.charCodeAt(index)
    const expected = CANONICAL_SHAPE.charCodeAt(index)
    if (expected === ZERO ? code < ZERO || code > NINE : code !== expected) return false
  }
  const month = digits(value, 5, 2)
  const day = digits(value, 8, 2)
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(digits(value, 0, 4), month) &&
    digits(value, 11, 2) <= 23 &&
    digits(value, 14, 2) <= 59 &&
    digits(value, 17, 2) <= 59
  )
}

/** The canonical form, a digit where `0` stands. */
const CANONICAL_SHAPE = '0000-00-00T00:00:00.000Z'
const ZERO = 48
const NINE = 57

function digits(value: string, start: number, count: number): number {
  let number = 0
  for (let index = start; index < start + count; index++) number = number * 10 + value.charCodeAt(index) - ZERO
  return number
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}
