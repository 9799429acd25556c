import { RejectedValue } from './rejected-value.js'

/** Why a value is not a datetime the storage accepts (each completes "<field> …"). */
export const DATETIME_REASONS = {
  format: 'must be an RFC 3339 date-time with an offset, e.g. 2026-01-31T12:00:00Z',
  leapSecond: 'is a leap second (second 60), which cannot be stored',
  range: 'must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z once converted to UTC',
} as const

export const DATE_REASON = 'must be a date (YYYY-MM-DD) between 0001-01-01 and 9999-12-31'

/**
 * Returns an RFC 3339 datetime as the UTC form `toISOString()` gives
 * (`2026-01-01T08:00:00.000Z`), so equal instants are stored identically and,
 * as text in SQLite, sort chronologically.
 *
 * Reads what ajv's `date-time` format accepts: `T`, `t` or white space
 * between date and time, any number of fractional digits (truncated to
 * milliseconds, as Date.parse does), and the offset `Z`, `z`, `±hh`, `±hhmm`
 * or `±hh:mm`; also toISOString's six-digit expanded years (`+010000-…`), so
 * a value formatted out of range gets the range reason. Throws RejectedValue
 * (a TypeError) for:
 * - anything else, impossible dates and times included (`2026-02-30`,
 *   `24:00:00`, no offset): never a guess through Date.parse;
 * - a leap second (`23:59:60`, which ajv accepts): JavaScript times cannot
 *   hold one, and PostgreSQL would silently roll it over to the next minute;
 * - an instant outside 0001-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z
 *   once converted to UTC (`9999-12-31T23:59:59-23:59` is in year 10000):
 *   the four-digit years of RFC 3339 and toISOString, without year 0000,
 *   which PostgreSQL refuses.
 *
 * A value already in the canonical form with valid fields (what the storage
 * itself returns, e.g. a keyset cursor's datetime) is returned as it is,
 * skipping the parse and format that cost most of a cheap query's overhead.
 */
export function normalizeDatetime(value: unknown): string {
  if (typeof value === 'string' && isCanonical(value)) return value
  const match = typeof value === 'string' ? DATETIME.exec(value) : null
  if (match === null) throw new RejectedValue(DATETIME_REASONS.format)
  const [
    ,
    yearText,
    monthText,
    dayText,
    hourText,
    minuteText,
    secondText,
    fraction,
    sign,
    offsetHourText,
    offsetMinuteText,
  ] = match
  const year = Number(yearText)
  const month = Number(monthText)
  const day = Number(dayText)
  const hour = Number(hourText)
  const minute = Number(minuteText)
  const second = Number(secondText)
  const offsetHours = Number(offsetHourText ?? 0)
  const offsetMinutes = Number(offsetMinuteText ?? 0)
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 60 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  ) {
    throw new RejectedValue(DATETIME_REASONS.format)
  }
  if (second === 60) throw new RejectedValue(DATETIME_REASONS.leapSecond)
  const milliseconds = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'))
  // Date.UTC reads years 0–99 as 1900–1999, so the year is set separately (the day was checked for it).
  const local = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, milliseconds))
  local.setUTCFullYear(year)
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000
  const time = local.getTime() - offset
  // NaN (beyond what a Date holds) fails both comparisons.
  if (!(time >= MIN_TIME && time <= MAX_TIME)) throw new RejectedValue(DATETIME_REASONS.range)
  return new Date(time).toISOString()
}

/**
 * Returns `value` when it is a real `YYYY-MM-DD` date in the years 0001–9999
 * (PostgreSQL refuses year 0000, so SQLite must too); throws RejectedValue
 * otherwise.
 */
export function checkDate(value: unknown): string {
  if (typeof value !== 'string' || value.length !== 10 || !DATE.test(value)) throw new RejectedValue(DATE_REASON)
  const year = digits(value, 0, 4)
  const month = digits(value, 5, 2)
  const day = digits(value, 8, 2)
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RejectedValue(DATE_REASON)
  }
  return value
}

const DATETIME =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})[Tt\s](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const MIN_TIME = -62_135_596_800_000 // 0001-01-01T00:00:00.000Z
const MAX_TIME = 253_402_300_799_999 // 9999-12-31T23:59:59.999Z

/** Whether toISOString() would give `value` back: `YYYY-MM-DDTHH:MM:SS.sssZ`, every field in range, year 0001–9999. */
function isCanonical(value: string): boolean {
  if (value.length !== 24) return false
  for (let index = 0; index < 24; index++) {
    const code = value.charCodeAt(index)
    const expected = CANONICAL_SHAPE.charCodeAt(index)
    if (expected === ZERO ? code < ZERO || code > NINE : code !== expected) return false
  }
  const year = digits(value, 0, 4)
  const month = digits(value, 5, 2)
  const day = digits(value, 8, 2)
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
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
