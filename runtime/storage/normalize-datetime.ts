/**
 * Returns an RFC 3339 datetime as the UTC form `toISOString()` gives
 * (`2026-01-01T08:00:00.000Z`), so equal instants are stored identically and,
 * as text in SQLite, sort chronologically.
 */
export function normalizeDatetime(value: unknown): string {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN
  if (Number.isNaN(time)) {
    throw new TypeError(`expected an RFC 3339 datetime, got ${JSON.stringify(value)}`)
  }
  return new Date(time).toISOString()
}
