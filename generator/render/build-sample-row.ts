import type { Row } from '../../runtime/contract/table-definition.js'
import type { FieldModel, ResourceModel } from '../model/api-model.js'
import { sampleJsonValue } from '../../runtime/storage/sample-json-value.js'

const SAMPLE_DATE = '2027-01-15'
const SAMPLE_DATETIME = '2027-01-15T09:30:00.000Z'
const SAMPLE_STRINGS = {
  email: 'ada@example.com',
  uri: 'https://example.com/',
  uuid: '3f8e9d2a-6b1c-4e7f-9a05-2d4c8b1e6f30',
} as const

/**
 * A stored row of `resource` (the storage's, the newest version's), made up
 * from its fields: the migration guide shows it as each version's record,
 * through the same translation the versions' routes use. Every field has a
 * value, so every field shows; values are the same on every run.
 */
export function buildSampleRow(resource: ResourceModel): Row {
  return Object.fromEntries(resource.fields.map((field) => [field.name, sampleValue(field)])) as Row
}

function sampleValue(field: FieldModel): Row[string] {
  if (field.name === 'id' || field.references) return 1
  if (field.enum) return field.enum[0]!
  if (field.default !== null) return field.default
  switch (field.type) {
    case 'boolean':
      return true
    case 'integer':
      return within(field, 1)
    case 'number':
      return within(field, 9.5)
    case 'date':
      return SAMPLE_DATE
    case 'datetime':
      return SAMPLE_DATETIME
    case 'string': {
      const text = field.format === null ? `Sample ${field.name.replaceAll('_', ' ')}` : SAMPLE_STRINGS[field.format]
      return text.slice(0, field.maxLength ?? undefined)
    }
    case 'decimal':
      return sampleDecimal(field.decimal?.scale ?? 0)
    case 'json':
      return sampleJsonValue(field.jsonSchema ?? {}) as Row[string]
    case 'array':
      return field.items === undefined || field.maxItems === 0 ? [] : [sampleValue(field.items) as string]
  }
}

/** `9.50` at scale 2, `9` at scale 0: one digit before the point, so it fits any precision. */
export function sampleDecimal(scale: number): string {
  return scale === 0 ? '9' : `9.${'5'.padEnd(scale, '0')}`
}

/** `preferred`, moved into the field's minimum and maximum. */
function within(field: FieldModel, preferred: number): number {
  return Math.min(Math.max(preferred, field.minimum ?? preferred), field.maximum ?? preferred)
}
