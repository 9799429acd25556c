import type { FieldType } from '../contract/field-type.js'
import { matchesFormat } from '../contract/matches-format.js'
import { checkDate, normalizeDatetime } from '../storage/normalize-datetime.js'
import { RejectedValue } from '../storage/rejected-value.js'
import { checkDecimal } from '../storage/decimal-text.js'
import type { ColumnDefinition, ColumnValue } from '../contract/table-definition.js'

const INTEGER = /^-?\d+$/
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/

/**
 * Parses one query-string value as a value of `column`, as the OpenAPI
 * document describes it: its type and, when declared, its enum and string
 * format. When it does not parse, `problem` completes a sentence that starts
 * with the parameter's name.
 */
export function parseQueryValue(
  raw: string,
  column: Pick<ColumnDefinition, 'type' | 'enum' | 'format'>,
): { value: ColumnValue } | { problem: string } {
  const parsed = parseByType(raw, column.type)
  if ('problem' in parsed) return parsed
  if (column.enum && !column.enum.includes(parsed.value as string | number)) {
    return { problem: `must be one of ${column.enum.map((value) => JSON.stringify(value)).join(', ')}` }
  }
  if (column.format && !matchesFormat(column.format, raw)) return { problem: `must be a valid ${column.format}` }
  return parsed
}

function parseByType(raw: string, type: FieldType): { value: ColumnValue } | { problem: string } {
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
    case 'decimal':
      // The storage's own checks, so a filter accepts exactly what a field can hold.
      try {
        return {
          value: type === 'date' ? checkDate(raw) : type === 'decimal' ? checkDecimal(raw) : normalizeDatetime(raw),
        }
      } catch (error) {
        if (!(error instanceof RejectedValue)) throw error
        return { problem: error.reason }
      }
    case 'string':
      return { value: raw }
    case 'json':
    case 'array':
      // Only `null` filters these (OPERATORS_BY_FIELD_TYPE), whose operand is not a value of the field.
      throw new Error(`internal error: a ${type} field has no filter operand`)
  }
}
