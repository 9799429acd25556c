import type { ArrayItemType, FieldType, StringFormat } from './field-type.js'

/**
 * What generated code tells the runtime about one database table. Generated
 * `schema.ts` files export one of these per resource; the storage layer and the
 * HTTP handlers read nothing else.
 */
export type ColumnValue = string | number | boolean | null | JsonDocument

/** A `json` or `array` field's value: an object or array, as JSON.parse returns it. */
export type JsonDocument = readonly unknown[] | { readonly [key: string]: unknown }
export type Row = Record<string, ColumnValue>

export interface ColumnDefinition {
  readonly name: string
  readonly type: FieldType
  /** NULL may be stored: nullable fields, and optional fields without a default. */
  readonly nullable: boolean
  readonly unique: boolean
  /** Server-managed (`id`, `created_at`, `updated_at`): clients never write it. */
  readonly readOnly: boolean
  /**
   * The owner field (`owner:` in the manifest): set from the caller's claim on
   * create; clients never write it, but the storage writes it like any column.
   */
  readonly owner?: true
  /** Written when a create or replace omits the field (null when there is none). */
  readonly default: ColumnValue
  /** Allowed values, when the field declares `enum`. */
  readonly enum?: readonly (string | number)[]
  /** String format, when declared: `email`, `uri` or `uuid`. */
  readonly format?: StringFormat
  /** Inclusive bounds of a number or integer field, when declared. */
  readonly minimum?: number
  readonly maximum?: number
  /** Length bounds of a string field in code points, when declared. */
  readonly minLength?: number
  readonly maxLength?: number
  /** The ECMAScript pattern (`u` flag, unanchored) a string field matches, when declared. */
  readonly pattern?: string
  /** Foreign key to another table's `id`. */
  readonly references?: { readonly table: string; readonly onDelete: OnDelete }
  /** `decimal`: digits in all, and after the point (values are strings with exactly `scale` of them). */
  readonly precision?: number
  readonly scale?: number
  /** `array`: the items' scalar type. */
  readonly items?: { readonly type: ArrayItemType }
  /** `json`: the JSON Schema its values satisfy (the body validators check it; sample rows are made from it). */
  readonly schema?: Readonly<Record<string, unknown>> | boolean
}

export interface ReferenceDefinition {
  /** The table whose rows point at this one, and the resource it serves. */
  readonly table: string
  readonly resource: string
  readonly column: string
  readonly onDelete: OnDelete
}

/** A relation that `?include=` can embed. */
export interface RelationDefinition {
  /** The embedded member's name: `author`, `comments`. */
  readonly name: string
  /**
   * `belongs-to`: this table's `column` holds the target's id (embeds one
   * object or null). `has-many`: the target's `column` holds this table's id
   * (embeds an array).
   */
  readonly kind: 'belongs-to' | 'has-many' | 'many-to-many'
  /** Target table name. */
  readonly table: string
  readonly column: string
  /**
   * has-many: the collection path, after the version prefix, listing every
   * related row of one record, `{id}` standing for its id
   * (`/posts/{id}/comments`, `/posts?author_id={id}`); where a cut embedded
   * array links to the rest. Absent when no route lists them by `column`.
   */
  readonly listPath?: string
  /**
   * many-to-many: the join table linking the two; `column` is then the join's
   * key holding this table's id (`post_id`), `targetColumn` the join's key
   * holding the target's (`tag_id`).
   */
  readonly through?: { readonly table: string; readonly targetColumn: string }
  /** has-many: the most rows one include embeds per row, when the manifest sets it for this relation (else ApiLimits.includeItemsMax). */
  readonly maxItems?: number
}

/** An index the storage creates (missing ones are added even to existing tables). */
export interface IndexDefinition {
  readonly columns: readonly string[]
}

export interface TableDefinition {
  /** SQL table name, lower_snake_case: `order_items`. */
  readonly name: string
  /** Collection path segment: `order-items`. */
  readonly resource: string
  /** Singular noun for messages: `order-item`. */
  readonly singular: string
  /** `id` first, then declared fields and foreign keys, then `created_at`, `updated_at`. */
  readonly columns: readonly ColumnDefinition[]
  /** Foreign keys elsewhere that point at this table; DELETE consults them. */
  readonly referencedBy: readonly ReferenceDefinition[]
  /** Relations clients may include; absent means none. */
  readonly relations?: readonly RelationDefinition[]
  /**
   * Indexes beyond the primary key, unique constraints and foreign keys (which
   * are always indexed): one per sortable field as `[field, id]` and one per
   * filterable field, so keyset cursors and common filters do not scan.
   */
  readonly indexes?: readonly IndexDefinition[]
  /**
   * `soft_delete: true`: the last column is `deleted_at`; DELETE stamps it,
   * reads see only rows where it is null unless asked otherwise, and UNIQUE
   * holds among those rows only (partial unique indexes).
   */
  readonly softDelete?: true
  /** Composite unique constraints (the manifest's `unique:`): column lists unique together, in manifest order. */
  readonly uniques?: readonly (readonly string[])[]
}

/** The sub-collection a soft-deleted record is restored through: `POST /<resources>/{id}/restorations`. */
export const RESTORATIONS = 'restorations'

/**
 * What deleting a referenced record does to the records whose foreign key
 * points at it: refuse, delete them too, or set their key to NULL (only a
 * nullable key: validation rule ON_DELETE_SET_NULL_REQUIRED).
 */
export const ON_DELETE_ACTIONS = ['restrict', 'cascade', 'set_null'] as const

export type OnDelete = (typeof ON_DELETE_ACTIONS)[number]

/** The SQL `ON DELETE` action of an OnDelete: `set_null` is `set null`. */
export function onDeleteSql(onDelete: OnDelete): 'restrict' | 'cascade' | 'set null' {
  return onDelete === 'set_null' ? 'set null' : onDelete
}
