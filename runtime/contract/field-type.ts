/**
 * The value types a manifest field (and so a table column) can have, in the
 * order the manifest schema and the documentation list them.
 */
export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'date', 'datetime'] as const

export type FieldType = (typeof FIELD_TYPES)[number]
