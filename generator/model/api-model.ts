import type { AggregateFunction, AggregateRules } from '../../runtime/contract/aggregate-function.js'
import type { CountStrategy } from '../../runtime/contract/count-strategy.js'
import type { HookName } from '../../runtime/contract/hook-name.js'
import type {
  AccessRule,
  ApiAuth,
  AuthScheme,
  OwnerRule,
  ResourceAccess,
  TableAccess,
} from '../../runtime/contract/access-rule.js'
import type { ApiHttp } from '../../runtime/contract/define-api.js'
import type { QueryRules } from '../../runtime/contract/query-rules.js'
import type { ApiLimits } from '../../runtime/contract/api-limits.js'
import type { FieldType, StringFormat } from '../../runtime/contract/field-type.js'
import type { FilterOperator } from '../../runtime/contract/filter-operator.js'
import type { ResourceRoute, RouteMethod } from '../../runtime/contract/resource-routes.js'
import type { RatePolicy, ServiceRatePolicy } from '../../runtime/contract/rate-policy.js'
import type { ColumnValue, OnDelete, TableDefinition } from '../../runtime/contract/table-definition.js'
import type { NamesToNewer } from '../versions/apply-changes-backwards.js'
import type { VersionChange } from '../versions/version-change.js'

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
  readonly limits: ApiLimits
  /** `limits.rate`, named `default`: every client's limit unless its resource sets one; null when not set. */
  readonly rate: ServiceRatePolicy | null
  readonly http: HttpModel
  /** Write `openapi.yaml` next to `openapi.json` (the manifest's `openapi.yaml`). */
  readonly openapiYaml: boolean
  readonly versions: readonly VersionModel[]
  /**
   * The storage's resources, in manifest order: the newest version's, plus the
   * removed fields and resources older versions still serve (build-storage-resources.ts).
   */
  readonly resources: readonly ResourceModel[]
  /** `auth.schemes` in manifest order; empty without `auth:` (every operation is public). */
  readonly authSchemes: readonly AuthScheme[]
  /** What server.ts gives the runtime: its HTTP options (null: none set) and auth (null: no `auth:`). */
  readonly runtime: { readonly http: ApiHttp | null; readonly auth: ApiAuth | null }
  /** The manifest's `app:`, the module path relative to the manifest; null without one. */
  readonly appModule: string | null
  /** Each resource's computed fields and their types (resources that have any), by resource name. */
  readonly computed: Readonly<Record<string, Readonly<Record<string, FieldType>>>>
  /** Each resource's `hooks:` (those that list any), by resource name. */
  readonly hooks: Readonly<Record<string, readonly HookName[]>>
}

/** The manifest's `http:`. */
export interface HttpModel {
  /** Proxy hops, or the proxies' addresses and CIDRs; null: trust no proxy (the socket's address is the client's). */
  readonly trustProxy: number | readonly string[] | null
  readonly cors: CorsModel | null
}

export interface CorsModel {
  /** Absolute origins, or `*` alone. */
  readonly origins: readonly string[]
  /** `Access-Control-Max-Age`; null: the browser's default. */
  readonly maxAgeSeconds: number | null
  /** Request headers browsers may send besides the safelisted ones. */
  readonly allowedHeaders: readonly string[]
}

export interface VersionModel {
  /** `v1` */
  readonly name: string
  /** `/v1` */
  readonly prefix: string
  /** The breaking changes since the previous version; empty for the oldest. */
  readonly changes: readonly VersionChange[]
  /** What this version serves, in manifest order: the newest version's are `ApiModel.resources`. */
  readonly resources: readonly ResourceModel[]
  /** What the version announces to its clients once the manifest declares it deprecated; null for a current version. */
  readonly deprecation: DeprecationModel | null
  /** What the next newer version calls each of this version's names; null for the newest. */
  readonly toNewer: NamesToNewer | null
  /**
   * How each resource reaches the storage (map-version-storage.ts); null when
   * some field or relation has no storage counterpart: the version is then
   * documented but not served.
   */
  readonly storage: ReadonlyMap<string, StorageMapping> | null
  /**
   * The tables whose access rules differ in this version from the storage's
   * (the newest version's), by table: what a newer `change_access` kept from
   * before; null when none does.
   */
  readonly access: Readonly<Record<string, TableAccess>> | null
  /**
   * The custom operations the version serves, in manifest order: those of its
   * resources (on one record), then those of `collection_only` resources.
   */
  readonly operations: readonly OperationModel[]
}

/** One custom operation (`operations:`): only its handler is the app module's. */
export interface OperationModel {
  /** The path segment: `cancellations`. */
  readonly name: string
  /** The resource it is declared on, as the version names it: `orders`, `reports`. */
  readonly resource: string
  /** The app module's key of its handler: `orders.cancellations.create` (runtime/contract/operation-route.ts). */
  readonly handler: string
  readonly method: RouteMethod
  /** Without the version prefix: `/orders/{order_id}/cancellations`, or `/reports/sales-by-month` on a collection_only resource. */
  readonly path: string
  /** Fastify form of `path`. */
  readonly url: string
  /** The path parameter naming the record it acts on (`order_id`); null on a collection_only resource. */
  readonly idParam: string | null
  /** The body's fields; null when the operation takes no body. */
  readonly body: readonly FieldModel[] | null
  /** Its query parameters; empty when none. */
  readonly query: readonly FieldModel[]
  /** What it answers: a record of a resource, a shape of its own (one object, or an array), or nothing (204). */
  readonly responds:
    | { readonly kind: 'record'; readonly resource: string }
    | { readonly kind: 'shape'; readonly fields: readonly FieldModel[]; readonly many: boolean }
    | null
  readonly status: number
  /** Its alternatives (its `access`, else `auth.default`); null without `auth:` (public). */
  readonly access: readonly AccessRule[] | null
  /** The resource's own rate limit, in place of ApiModel.rate; null when it has none. */
  readonly rate: RatePolicy | null
  /** PascalCase stem of its TypeScript types and validators: `OrderCancellationsCreate`. */
  readonly typeName: string
}

/** How one resource of a version reaches the storage. */
export interface StorageMapping {
  /** The storage's resource holding it (its table). */
  readonly storage: ResourceModel
  /** Each of the version's fields → the storage column holding it. */
  readonly columns: ReadonlyMap<string, string>
  /** Storage columns the version does not have → what rows it creates get there (the changes' `older_value`). */
  readonly olderValues: ReadonlyMap<string, ColumnValue>
  /** Each of the version's relations → the storage relation embedding the same records. */
  readonly relations: ReadonlyMap<string, string>
}

/** A deprecated version's signals: response headers and `meta` (runtime), `deprecated: true` (OpenAPI). */
export interface DeprecationModel {
  /** `2027-01-15`: deprecated from 00:00 UTC that day (RFC 9745 `Deprecation`). */
  readonly deprecated: string
  /** `2027-07-15`: may stop answering from 00:00 UTC that day (RFC 8594 `Sunset`); null when not set. */
  readonly sunset: string | null
  /** The migration guide (`Link: rel="deprecation"`): the manifest's `guide`, else `/docs/migrate-v1-to-v2`. */
  readonly guide: string
  /** The next newer version's prefix, `/v2`: the same path under it is the `successor-version` link. */
  readonly successorPrefix: string
  /** Routes whose successor is elsewhere, or none (null): list-successor-routes.ts. Absent when there are none. */
  readonly successorRoutes?: Readonly<Record<string, string | null>>
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
  /**
   * Set by the server, never by a client: `id`, `created_at`, `updated_at`, and
   * the owner field (which the storage writes as given, so is not
   * storage-managed: ColumnDefinition.readOnly).
   */
  readonly serverManaged: boolean
  /** Foreign key (the parent key, a belongs-to's `<relation>_id`): what it references. */
  readonly references: ReferencesModel | null
  /**
   * The column's previous name, from `renamed_from` on the field or its
   * belongs-to relation (or on the parent resource, for the parent key);
   * only migrations read it.
   */
  readonly renamedFrom: string | null
  /** `decimal` only: NUMERIC(precision, scale). */
  readonly decimal?: { readonly precision: number; readonly scale: number }
  /** `json` only: the manifest's `schema`, which body validators apply as is; absent: any JSON value. */
  readonly jsonSchema?: Readonly<Record<string, unknown>> | boolean
  /** `array` only: what each item is (a scalar field's model, without a name of its own), and the most items. */
  readonly items?: FieldModel
  readonly maxItems?: number
}

export interface ReferencesModel {
  /** The referenced resource's name. */
  readonly resource: string
  readonly onDelete: OnDelete
  /** The belongs-to relation that adds this key; null for the parent key. */
  readonly relation: string | null
}

export interface ResourceModel {
  /** Collection path segment: `order-items`. */
  readonly name: string
  /** `order-item` */
  readonly singular: string
  /** SQL table: `order_items`. */
  readonly table: string
  /** The resource's previous name, from `renamed_from`; only migrations read it. */
  readonly renamedFrom: string | null
  /** TypeScript type of one record: `OrderItem`. */
  readonly typeName: string
  /** TypeScript value identifier: `orderItems`. */
  readonly identifier: string
  /** Foreign key / nested path parameter naming one of these: `order_item_id`. */
  readonly idParam: string
  /** `id`, declared fields in order, the parent key, relation keys, `created_at`, `updated_at`. */
  readonly fields: readonly FieldModel[]
  readonly parent: ParentModel | null
  /** Foreign keys of other resources (children and belongs-to relations) that point at this one. */
  readonly referencedBy: readonly ReferenceModel[]
  /** The runtime's view of the resource's table, in its version's names (schema.ts, translate modules). */
  readonly definition: TableDefinition
  /** The runtime's query rules of the resource, as its routes file declares them. */
  readonly queryRules: QueryRules
  /** Every declared relation, in manifest order: what `?include=` paths walk through. */
  readonly relations: readonly RelationModel[]
  /** Include paths clients may ask for (`author`, `items.product`); empty when none. */
  readonly includes: readonly string[]
  /** Composite unique constraints (`unique:`): field lists unique together; empty when none. */
  readonly unique: readonly (readonly string[])[]
  /** Fields `?sort=` may name, `id` always among them (last unless listed). */
  readonly sortable: readonly string[]
  /** Filterable fields with their operators, in manifest (or field) order. */
  readonly filters: readonly FilterModel[]
  /** Query parameters of a collection GET, in documentation order (build-query-parameters.ts). */
  readonly listQuery: readonly QueryParameterModel[]
  /** Query parameters of an aggregates GET; empty without `aggregate:`. */
  readonly aggregateQuery: readonly QueryParameterModel[]
  /** Query parameters of an item GET. */
  readonly itemQuery: readonly QueryParameterModel[]
  /** `Cache-Control` of GET responses: `no-cache` or `max-age=<seconds>`. */
  readonly cacheControl: string
  /** How page requests count without `count=`: the resource's `count`, else `limits.count`, else `exact`. */
  readonly count: CountStrategy
  /** What the aggregates route takes (`aggregate:`, `groups_max` filled in); null without it, and no such route. */
  readonly aggregate: AggregateRules | null
  /** PUT, PATCH and DELETE require `If-Match` (428 without): `concurrency.require_if_match`, or the top-level one. */
  readonly requireIfMatch: boolean
  /** The resource's own rate limit, named after it, in place of ApiModel.rate; null when it has none. */
  readonly rate: RatePolicy | null
  /** Every route of this resource, top-level first. Paths exclude the version prefix. */
  readonly routes: readonly RouteModel[]
  /** Who may do what, `auth.default` filled in; null without `auth:` (everything public). */
  readonly access: ResourceAccess | null
  /** `soft_delete: true`: DELETE stamps `deleted_at` (the last field), restorations bring records back. */
  readonly softDelete: boolean
  /** The server-managed owner column and the claim stamped into it on create; null without `owner:`. */
  readonly owner: OwnerRule | null
  /** Read-only fields the app module computes (`computed:`), in manifest order; never stored. */
  readonly computed: readonly ComputedFieldModel[]
}

/** A computed field: in records (schema, types), never in bodies, storage, filters or sorts. */
export interface ComputedFieldModel {
  readonly name: string
  readonly type: FieldType
  readonly nullable: boolean
}

export interface ParentModel {
  readonly resource: string
  /** `order_id`: the foreign key column and the nested path parameter. */
  readonly foreignKey: string
  readonly onDelete: OnDelete
}

/** A foreign key elsewhere pointing at a resource: DELETE of a referenced record obeys its `onDelete`. */
export interface ReferenceModel {
  /** The resource holding the key. */
  readonly resource: string
  readonly foreignKey: string
  readonly onDelete: OnDelete
}

export interface RelationModel {
  /** The relation's name, and the member `?include=` embeds: `author`, `comments`. */
  readonly name: string
  /** `belongs-to` embeds one record (or null), `has-many` and `many-to-many` an array. */
  readonly kind: 'belongs-to' | 'has-many' | 'many-to-many'
  /** The related resource's name. */
  readonly resource: string
  /** belongs-to: this resource's `<relation>_id`; has-many: the target's key pointing back. */
  readonly foreignKey: string
  /**
   * many-to-many: the join resource, and its key holding the target's id
   * (`tag_id`); `foreignKey` is then the join's key holding this resource's
   * id (`post_id`). Null for the other kinds.
   */
  readonly through: { readonly resource: string; readonly targetKey: string } | null
  /** has-many: the link on the target it inverts (a relation name or the parent key); null for belongs-to. */
  readonly via: string | null
  /**
   * has-many: the collection path (without the version prefix) that lists every
   * related record of one record, `{id}` standing for its id: the nested route
   * `/posts/{id}/comments` when the key is the target's parent key, else the
   * target's collection filtered on the key (`/posts?author_id={id}`, or
   * `filter[author_id][in]` without `eq`); null when neither exists, and for belongs-to.
   */
  readonly listPath: string | null
  /** has-many: the most records `?include=` embeds per record (its `max_items`, else `limits.include_items_max`); null for belongs-to. */
  readonly maxItems: number | null
}

/** One query parameter as a client sends it, with what its value holds. */
export type QueryParameterModel = { readonly name: string; readonly description: string } & (
  | { readonly kind: 'page'; readonly maximum: number; readonly default: number }
  | { readonly kind: 'cursor' }
  | { readonly kind: 'count' }
  | { readonly kind: 'sort'; readonly fields: readonly string[] }
  | { readonly kind: 'include'; readonly paths: readonly string[]; readonly maxItems: number }
  | { readonly kind: 'group_by'; readonly fields: readonly string[] }
  | { readonly kind: 'aggregate'; readonly functions: readonly AggregateFunction[] }
  | {
      readonly kind: 'filter'
      /** `exact`: `?<field>=` (eq); `operator`: `filter[<field>][<operator>]=`. */
      readonly form: 'exact' | 'operator'
      readonly field: string
      readonly operator: FilterOperator
    }
)

export interface FilterModel {
  readonly field: string
  readonly operators: readonly FilterOperator[]
}

/** One route, as listResourceRoutes gives it: methods, path, Fastify url, path parameters, nesting. */
export type RouteModel = ResourceRoute

/** Looks up a resource the validated manifest guarantees to exist. */
export function findResource(model: Pick<ApiModel, 'resources'>, name: string): ResourceModel {
  const resource = model.resources.find((candidate) => candidate.name === name)
  if (!resource) throw new Error(`internal error: the model has no resource ${JSON.stringify(name)}`)
  return resource
}
