/**
 * The value types a manifest field (and so a table column) can have, in the
 * order the manifest schema and the documentation list them.
 */
export const FIELD_TYPES = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'datetime',
  'decimal',
  'json',
  'array',
] as const

export type FieldType = (typeof FIELD_TYPES)[number]

/** The types an `array` field's items may have: one scalar each, stored inside the array's JSON. */
export const ARRAY_ITEM_TYPES = ['string', 'integer', 'number', 'boolean', 'date', 'datetime'] as const

export type ArrayItemType = (typeof ARRAY_ITEM_TYPES)[number]

/** Types whose values are JSON documents (an object, an array...): stored as JSON, neither sorted nor compared. */
export function isJsonValued(type: FieldType): type is 'json' | 'array' {
  return type === 'json' || type === 'array'
}

/**
 * `decimal`'s most digits: PostgreSQL's NUMERIC takes up to 1000, but 38 is
 * what every other database's exact decimal holds, and what the API documents.
 */
export const DECIMAL_MAX_PRECISION = 38

/** The `format:` a string field may declare; filters and bodies check it alike (ajv-formats). */
export const STRING_FORMATS = ['email', 'uri', 'uuid'] as const

export type StringFormat = (typeof STRING_FORMATS)[number]

/**
 * The fields every record has and the storage writes: `id` first, the
 * timestamps last. Clients never set them, and a manifest may not declare them.
 */
export const SERVER_MANAGED_FIELDS = {
  id: 'integer',
  created_at: 'datetime',
  updated_at: 'datetime',
} as const satisfies Readonly<Record<string, FieldType>>

export type ServerManagedField = keyof typeof SERVER_MANAGED_FIELDS

export function isServerManagedField(name: string): name is ServerManagedField {
  return Object.hasOwn(SERVER_MANAGED_FIELDS, name)
}

/** The column a `soft_delete: true` resource stamps on DELETE: server-managed, null while the record is live. */
export const SOFT_DELETE_FIELD = 'deleted_at'
