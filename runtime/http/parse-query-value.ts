import { checkDate, normalizeDatetime } from '../storage/normalize-datetime.js'
import { RejectedValue } from '../storage/rejected-value.js'
import type { ColumnType, ColumnValue } from '../table-definition.js'

const INTEGER = /^-?\d+$/
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/

/**
 * Parses one query-string value by the column's type. When it does not parse,
 * `problem` completes a sentence that starts with the parameter's name.
 */
export function parseQueryValue(raw: string, type: ColumnType): { value: ColumnValue } | { problem: string } {
  switch (type) {
    case 'integer': {
      const value = Number(raw)
      return INTEGER.test(raw) && Number.isSafeInteger(value) ? { value } : { problem: 'must be an integer' }
    }
    case 'number':
      return NUMBER.test(raw) && Number.isFinite(Number(raw)) ? { value: Number(raw) } : { problem: 'must be a number' }
    case 'boolean':
      return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { problem: 'must be true or false' }
    case 'date':
    case 'datetime':
      // The storage's own checks, so a filter accepts exactly what a field can hold.
      try {
        return { value: type === 'date' ? checkDate(raw) : normalizeDatetime(raw) }
      } catch (error) {
        if (!(error instanceof RejectedValue)) throw error
        return { problem: error.reason }
      }
    case 'string':
      return { value: raw }
  }
}

