import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { compilePattern, explainValueMismatch } from './explain-value-mismatch.js'
import { quoteValue } from './describe-value.js'
import { listOperationFields, listResourceEntries, type ListedEntry } from './list-resource-entries.js'

const NUMERIC_TYPES: readonly unknown[] = ['integer', 'number']
const ENUM_TYPES: readonly unknown[] = ['string', 'integer', 'number']
const FIELD_TYPES: readonly unknown[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'datetime',
  'decimal',
  'json',
  'array',
]
/** json and array defaults are FIELD_TYPE_OPTION's (check-field-types.ts). */
const DOCUMENT_TYPES: readonly unknown[] = ['json', 'array']
const NUMBER_OPTIONS = ['minimum', 'maximum'] as const
const STRING_OPTIONS = ['min_length', 'max_length', 'pattern', 'format'] as const

/**
 * RANGE, ENUM_TYPE and DEFAULT_TYPE: field options must fit the field's type
 * and each other. Fields whose type is missing or unknown are left to the
 * schema check.
 */
export function checkFieldOptions(context: CheckContext, data: unknown): void {
  for (const field of [...listResourceEntries(data, 'fields'), ...listOperationFields(data)]) {
    for (const checked of [field, ...listArrayItems(field)]) {
      if (checked.options === null || !FIELD_TYPES.includes(checked.options.type)) continue
      checkRanges(context, checked, checked.options)
      checkEnum(context, checked, checked.options)
      if (!DOCUMENT_TYPES.includes(checked.options.type)) checkDefault(context, checked, checked.options)
    }
  }
}

function checkRanges(context: CheckContext, field: ListedEntry, options: Readonly<Record<string, unknown>>): void {
  const type = String(options.type)
  const at = (option: string) => [...field.path, option]
  for (const option of NUMBER_OPTIONS) {
    if (options[option] !== undefined && !NUMERIC_TYPES.includes(type)) {
      const lengths = type === 'string' ? ' (for lengths use min_length and max_length)' : ''
      context.report(
        'RANGE',
        `"${option}" applies to integer and number fields; field "${field.name}" has type ${type}${lengths}`,
        context.atKey(at(option)),
      )
    }
  }
  for (const option of STRING_OPTIONS) {
    if (options[option] !== undefined && type !== 'string') {
      context.report(
        'RANGE',
        `"${option}" applies to string fields; field "${field.name}" has type ${type}`,
        context.atKey(at(option)),
      )
    }
  }
  const { minimum, maximum, min_length: minLength, max_length: maxLength, pattern } = options
  if (NUMERIC_TYPES.includes(type) && typeof minimum === 'number' && typeof maximum === 'number' && minimum > maximum) {
    context.report(
      'RANGE',
      `maximum ${maximum} of field "${field.name}" is less than its minimum ${minimum}, so no value fits; swap them`,
      context.atValue(at('maximum')),
    )
  }
  if (type === 'integer') checkSafeRange(context, field, minimum, maximum)
  if (type === 'string' && typeof minLength === 'number' && typeof maxLength === 'number' && minLength > maxLength) {
    context.report(
      'RANGE',
      `max_length ${maxLength} of field "${field.name}" is less than its min_length ${minLength}, so no value fits; swap them`,
      context.atValue(at('max_length')),
    )
  }
  if (type === 'string' && typeof pattern === 'string') {
    const compiled = compilePattern(pattern)
    if (compiled instanceof SyntaxError) {
      context.report(
        'RANGE',
        `pattern ${JSON.stringify(pattern)} of field "${field.name}" is not a valid regular expression (unicode mode): ${compiled.message}`,
        context.atValue(at('pattern')),
      )
    }
  }
}

/**
 * Integer schemas are capped at ±Number.MAX_SAFE_INTEGER (json-schemas.ts),
 * so a bound beyond that on the wrong side leaves no value to accept.
 */
function checkSafeRange(context: CheckContext, field: ListedEntry, minimum: unknown, maximum: unknown): void {
  const limit = Number.MAX_SAFE_INTEGER
  const report = (option: string, value: number, beyond: string) =>
    context.report(
      'RANGE',
      `${option} ${value} of integer field "${field.name}" is ${beyond} the API accepts, so no value fits; use a bound between -${limit} and ${limit}`,
      context.atValue([...field.path, option]),
    )
  if (typeof minimum === 'number' && minimum > limit)
    report('minimum', minimum, `above ${limit} (Number.MAX_SAFE_INTEGER), the largest integer`)
  if (typeof maximum === 'number' && maximum < -limit)
    report('maximum', maximum, `below -${limit}, the smallest integer`)
}

function checkEnum(context: CheckContext, field: ListedEntry, options: Readonly<Record<string, unknown>>): void {
  if (!Array.isArray(options.enum)) return
  if (!ENUM_TYPES.includes(options.type)) {
    context.report(
      'ENUM_TYPE',
      `"enum" applies to string, integer and number fields; field "${field.name}" has type ${String(options.type)}`,
      context.atKey([...field.path, 'enum']),
    )
    return
  }
  options.enum.forEach((value: unknown, index) => {
    const at = context.atValue([...field.path, 'enum', index])
    if (value === null) {
      context.report(
        'ENUM_TYPE',
        `enum of field "${field.name}" lists null; leave it out and set nullable: true instead`,
        at,
      )
      return
    }
    const mismatch = explainValueMismatch(value, options, false)
    if (mismatch !== null) {
      context.report('ENUM_TYPE', `enum value ${quoteValue(value)} of field "${field.name}" ${mismatch}`, at)
    }
  })
}

function checkDefault(context: CheckContext, field: ListedEntry, options: Readonly<Record<string, unknown>>): void {
  if (!Object.hasOwn(options, 'default')) return
  const value = options.default
  const at = context.atValue([...field.path, 'default'])
  if (value === null) {
    if (options.nullable !== true) {
      context.report(
        'DEFAULT_TYPE',
        `default null of field "${field.name}" needs nullable: true; add it, or remove the default`,
        at,
      )
    }
    return
  }
  const mismatch = explainValueMismatch(value, options, true)
  if (mismatch !== null)
    context.report('DEFAULT_TYPE', `default ${quoteValue(value)} of field "${field.name}" ${mismatch}`, at)
}

/** An array field's `items`, checked as a field of its own (named `<field> items`): the same options apply to each item. */
function listArrayItems(field: ListedEntry): ListedEntry[] {
  const items = field.options?.type === 'array' ? asRecord(field.options.items) : null
  if (items === null || items.type === 'json' || items.type === 'array') return []
  return [{ ...field, name: `${field.name} items`, options: items, path: [...field.path, 'items'] }]
}
