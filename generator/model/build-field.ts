import type { ManifestField } from '../manifest/manifest.js'
import type { FieldModel } from './api-model.js'

/** A declared field's model: the manifest's options with their defaults, neither server-managed nor a key. */
export function buildField(name: string, field: ManifestField): FieldModel {
  const required = field.required ?? false
  const nullable = field.nullable ?? false
  const fallback = field.default ?? null
  return {
    name,
    type: field.type,
    required,
    nullable,
    default: fallback,
    storedNullable: nullable || (!required && fallback === null),
    enum: field.enum ?? null,
    minimum: field.minimum ?? null,
    maximum: field.maximum ?? null,
    minLength: field.min_length ?? null,
    maxLength: field.max_length ?? null,
    pattern: field.pattern ?? null,
    format: field.format ?? null,
    unique: field.unique ?? false,
    serverManaged: false,
    references: null,
    renamedFrom: field.renamed_from ?? null,
    ...(field.type === 'decimal' ? { decimal: { precision: field.precision ?? 0, scale: field.scale ?? 0 } } : {}),
    ...(field.type === 'json' && field.schema !== undefined ? { jsonSchema: field.schema } : {}),
    ...(field.type === 'array' && field.items !== undefined ? { items: buildField(name, field.items) } : {}),
    ...(field.type === 'array' && field.max_items !== undefined ? { maxItems: field.max_items } : {}),
  }
}
