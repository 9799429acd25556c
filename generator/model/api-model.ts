import type { FieldType, OnDelete, StringFormat } from '../manifest/manifest.js'

/**
 * The normalized API model: what the manifest means, with every name and
 * default worked out. Templates, JSON Schemas and OpenAPI are rendered from
 * this alone; none of them sees the raw manifest.
 */
export interface ApiModel {
  /** The manifest path as the user gave it, for do-not-edit headers: `resources.yaml`. */
  readonly manifestFile: string
  readonly service: {
    readonly title: string
    readonly description: string | null
    readonly baseUrl: string | null
  }
  readonly limits: LimitsModel
  readonly versions: readonly VersionModel[]
  /** In manifest order. */
  readonly resources: readonly ResourceModel[]
}

export interface LimitsModel {
  readonly perPageDefault: number
  readonly perPageMax: number
  readonly includeMax: number
  readonly includeDepth: number
  readonly bodyMaxBytes: number
}

export interface VersionModel {
  /** `v1` */
  readonly name: string
  /** `/v1` */
  readonly prefix: string
}

export interface FieldModel {
  /** lower_snake_case: JSON property and SQL column. */
  readonly name: string
  readonly type: FieldType
  /** Must be present in create and replace bodies. */
  readonly required: boolean
  /** Clients may send null. */
  readonly nullable: boolean
  /** Written when create/replace omits the field; null when there is none. */
  readonly default: string | number | boolean | null
  /** NULL may be stored (nullable, or optional without a default). */
  readonly storedNullable: boolean
  readonly enum: readonly (string | number)[] | null
  readonly minimum: number | null
  readonly maximum: number | null
  readonly minLength: number | null
  readonly maxLength: number | null
  readonly pattern: string | null
  readonly format: StringFormat | null
  readonly unique: boolean
  /** Server-managed: `id`, `created_at`, `updated_at`. */
  readonly readOnly: boolean
  /** Foreign key (parent, later relations): the referenced resource name. */
  readonly references: { readonly resource: string; readonly onDelete: OnDelete } | null
}

export interface ResourceModel {
  /** Collection path segment: `order-items`. */
  readonly name: string
  /** `order-item` */
  readonly singular: string
  /** SQL table: `order_items`. */
  readonly table: string
  /** TypeScript type of one record: `OrderItem`. */
  readonly typeName: string
  /** TypeScript value identifier: `orderItems`. */
  readonly identifier: string
  /** Foreign key / nested path parameter naming one of these: `order_item_id`. */
  readonly idParam: string
  /** `id`, declared fields in order, the parent key, `created_at`, `updated_at`. */
  readonly fields: readonly FieldModel[]
  readonly parent: ParentModel | null
  /** Resources whose `parent` is this one. */
  readonly children: readonly ChildModel[]
  /** Every route of this resource, top-level first. Paths exclude the version prefix. */
  readonly routes: readonly RouteModel[]
}

export interface ParentModel {
  readonly resource: string
  /** `order_id`: the foreign key column and the nested path parameter. */
  readonly foreignKey: string
  readonly onDelete: OnDelete
}

export interface ChildModel {
  readonly resource: string
  readonly foreignKey: string
  readonly onDelete: OnDelete
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RouteModel {
  readonly kind: 'collection' | 'item'
  /** OpenAPI form: `/orders/{order_id}/items/{item_id}`. */
  readonly path: string
  /** Fastify form: `/orders/:order_id/items/:item_id`. */
  readonly fastifyPath: string
  readonly methods: readonly HttpMethod[]
  /** Path parameter of the record itself (`id`, or `item_id` when nested); null on collections. */
  readonly idParam: string | null
  /** Set on nested routes: the parent it is scoped to. */
  readonly parent: { readonly resource: string; readonly param: string; readonly foreignKey: string } | null
}
