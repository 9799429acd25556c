import type { ColumnType, ColumnValue } from '../table-definition.js'

const INTEGER = /^-?\d+$/
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
// RFC 3339: a date, a time and a mandatory offset.
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

/**
 * Parses one query-string value by the column's type. Returns a string saying
 * what was expected when the value does not parse (the caller names the
 * parameter).
 */
export function parseQueryValue(raw: string, type: ColumnType): { value: ColumnValue } | { expected: string } {
  switch (type) {
    case 'integer': {
      const value = Number(raw)
      return INTEGER.test(raw) && Number.isSafeInteger(value) ? { value } : { expected: 'an integer' }
    }
    case 'number':
      return NUMBER.test(raw) && Number.isFinite(Number(raw)) ? { value: Number(raw) } : { expected: 'a number' }
    case 'boolean':
      return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { expected: 'true or false' }
    case 'date':
      return DATE.test(raw) && isRealDate(raw) ? { value: raw } : { expected: 'a date (YYYY-MM-DD)' }
    case 'datetime':
      return DATETIME.test(raw) && !Number.isNaN(Date.parse(raw))
        ? { value: new Date(raw).toISOString() }
        : { expected: 'an RFC 3339 date-time with an offset (2026-01-31T12:00:00Z)' }
    case 'string':
      return { value: raw }
  }
}

function isRealDate(raw: string): boolean {
  const date = new Date(`${raw}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(raw)
}
