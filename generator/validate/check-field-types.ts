import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { ARRAY_ITEM_TYPES, DECIMAL_MAX_PRECISION } from '../../runtime/contract/field-type.js'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { listOperationFields, listResourceEntries, type ListedEntry } from './list-resource-entries.js'

/** The options that belong to one type only. */
const TYPE_OPTIONS: Readonly<Record<string, string>> = {
  precision: 'decimal',
  scale: 'decimal',
  schema: 'json',
  items: 'array',
  max_items: 'array',
}

const SCALAR_ITEM_TYPES: readonly unknown[] = ARRAY_ITEM_TYPES

/** Keywords that point elsewhere: a field's schema is embedded in each body's, where `#` is no longer its root. */
const REFERENCE_KEYWORDS = ['$ref', '$id', '$defs', 'definitions', '$dynamicRef', '$anchor']

/**
 * DECIMAL_DIGITS, JSON_SCHEMA, ARRAY_ITEMS and FIELD_TYPE_OPTION: the options
 * of decimal, json and array fields (operation fields included), and the
 * uses json and array fields cannot have (unique, sort, a default).
 */
export function checkFieldTypes(context: CheckContext, data: unknown): void {
  for (const field of [...listResourceEntries(data, 'fields'), ...listOperationFields(data)]) {
    if (field.options === null) continue
    checkTypeOptions(context, field, field.options)
    if (field.options.type === 'decimal') checkDecimal(context, field, field.options)
    if (field.options.type === 'json' && Object.hasOwn(field.options, 'schema')) checkJsonSchema(context, field)
    if (field.options.type === 'array') checkArrayItems(context, field, field.options)
    if (field.options.type === 'json' || field.options.type === 'array')
      checkDocumentUses(context, field, field.options)
  }
  checkDocumentSort(context, data)
}

function checkTypeOptions(context: CheckContext, field: ListedEntry, options: Readonly<Record<string, unknown>>): void {
  for (const [option, type] of Object.entries(TYPE_OPTIONS)) {
    if (options[option] === undefined || options.type === type) continue
    context.report(
      'FIELD_TYPE_OPTION',
      `"${option}" applies to ${type} fields; field "${field.name}" has type ${String(options.type)}: remove it, or make the field type: ${type}`,
      context.atKey([...field.path, option]),
    )
  }
}

function checkDecimal(context: CheckContext, field: ListedEntry, options: Readonly<Record<string, unknown>>): void {
  const { precision, scale } = options
  if (precision === undefined) {
    context.report(
      'DECIMAL_DIGITS',
      `decimal field "${field.name}" needs a precision, its number of digits in all: add precision: 10 (and scale: 2 for two of them after the point)`,
      context.atKey(field.path),
    )
    return
  }
  if (typeof precision !== 'number' || !Number.isInteger(precision)) return
  if (precision < 1 || precision > DECIMAL_MAX_PRECISION) {
    context.report(
      'DECIMAL_DIGITS',
      `precision ${precision} of decimal field "${field.name}" is outside 1 to ${DECIMAL_MAX_PRECISION}, the digits every database's exact decimal holds; use a precision in that range`,
      context.atValue([...field.path, 'precision']),
    )
  }
  if (typeof scale === 'number' && Number.isInteger(scale) && (scale < 0 || scale > precision)) {
    context.report(
      'DECIMAL_DIGITS',
      `scale ${scale} of decimal field "${field.name}" is ${scale < 0 ? 'negative' : `greater than its precision ${precision}`}: the scale counts the digits after the point, among the precision's; use a scale from 0 to ${precision}`,
      context.atValue([...field.path, 'scale']),
    )
  }
}

/**
 * Compiles the field's schema as the generator will (ajv, strict mode, the
 * formats restmint knows), so what the body validators would refuse to
 * compile is refused here, at the schema.
 */
function checkJsonSchema(context: CheckContext, field: ListedEntry): void {
  const schema = field.options!.schema
  const at = context.atValue([...field.path, 'schema'])
  const reference = findKeyword(schema, REFERENCE_KEYWORDS)
  if (reference !== null) {
    context.report(
      'JSON_SCHEMA',
      `schema of json field "${field.name}" uses "${reference}": the schema is embedded in each body's schema, where references do not resolve; write the referenced schema inline`,
      at,
    )
    return
  }
  const problem = compileProblem(schema)
  if (problem !== null) {
    context.report(
      'JSON_SCHEMA',
      `schema of json field "${field.name}" is not a valid JSON Schema (draft-07, strict): ${problem}; fix the schema, or remove it to accept any JSON value`,
      at,
    )
  }
}

function compileProblem(schema: unknown): string | null {
  const ajv = new Ajv({ strict: true, allErrors: true })
  addFormats.default(ajv, ['date', 'date-time', 'email', 'uri', 'uuid'])
  try {
    ajv.compile(schema as object)
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

function findKeyword(schema: unknown, keywords: readonly string[]): string | null {
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = findKeyword(item, keywords)
      if (found !== null) return found
    }
    return null
  }
  const record = asRecord(schema)
  if (record === null) return null
  for (const [key, value] of Object.entries(record)) {
    if (keywords.includes(key)) return key
    const found = findKeyword(value, keywords)
    if (found !== null) return found
  }
  return null
}

function checkArrayItems(context: CheckContext, field: ListedEntry, options: Readonly<Record<string, unknown>>): void {
  const items = asRecord(options.items)
  if (items === null) {
    if (options.items === undefined) {
      context.report(
        'ARRAY_ITEMS',
        `array field "${field.name}" needs items, the type of each item: add items: { type: string } (or integer, number, boolean, date, datetime)`,
        context.atKey(field.path),
      )
    }
    return
  }
  if (items.type !== undefined && !SCALAR_ITEM_TYPES.includes(items.type)) {
    context.report(
      'ARRAY_ITEMS',
      `items of array field "${field.name}" have type ${JSON.stringify(items.type)}; an array holds scalars: ${ARRAY_ITEM_TYPES.join(', ')} (for nested documents, use a json field with a schema)`,
      context.atValue([...field.path, 'items', 'type']),
    )
  }
}

function checkDocumentUses(
  context: CheckContext,
  field: ListedEntry,
  options: Readonly<Record<string, unknown>>,
): void {
  const type = String(options.type)
  if (field.path.includes('query')) {
    context.report(
      'FIELD_TYPE_OPTION',
      `query parameter "${field.name}" cannot be a ${type}: a query string holds scalars; send it in the body instead`,
      context.atValue([...field.path, 'type']),
    )
  }
  if (options.unique === true) {
    context.report(
      'FIELD_TYPE_OPTION',
      `${type} field "${field.name}" cannot be unique: its stored JSON text differs by key order and spacing between the databases; remove unique`,
      context.atKey([...field.path, 'unique']),
    )
  }
  if (options.default !== undefined && options.default !== null) {
    context.report(
      'FIELD_TYPE_OPTION',
      `${type} field "${field.name}" takes no default but null; remove it, or let the client send the value`,
      context.atValue([...field.path, 'default']),
    )
  }
}

/** A document has no order: `sort:` lists no json or array field. */
function checkDocumentSort(context: CheckContext, data: unknown): void {
  for (const field of listResourceEntries(data, 'fields')) {
    const type = field.options?.type
    if (type !== 'json' && type !== 'array') continue
    const sort = field.resourceValue.sort
    if (!Array.isArray(sort)) continue
    sort.forEach((entry: unknown, index) => {
      if (entry !== field.name) return
      context.report(
        'FIELD_TYPE_OPTION',
        `sort field "${field.name}" of resource "${field.resource}" is a ${type} field, which has no order; remove it from sort`,
        context.atValue(['resources', field.resource, 'sort', index]),
      )
    })
  }
}
