import type { AccessOperation } from '../../runtime/contract/access-rule.js'
import type { DEFAULT_LIMITS } from '../../runtime/contract/api-limits.js'
import type { AggregateFunction } from '../../runtime/contract/aggregate-function.js'
import type { CountStrategy } from '../../runtime/contract/count-strategy.js'
import type { ArrayItemType, FieldType, StringFormat } from '../../runtime/contract/field-type.js'
import type { FilterOperator } from '../../runtime/contract/filter-operator.js'
import type { OnDelete } from '../../runtime/contract/table-definition.js'
import type { HookName } from '../../runtime/contract/hook-name.js'

/**
 * The manifest as written in resources.yaml (format 1), after schema
 * validation. Only the validate stage and the model builder read this shape;
 * templates never see it.
 */

export interface ManifestField {
  type: FieldType
  required?: boolean
  nullable?: boolean
  default?: string | number | boolean | null
  enum?: (string | number)[]
  minimum?: number
  maximum?: number
  min_length?: number
  max_length?: number
  pattern?: string
  format?: StringFormat
  unique?: boolean
  /** The field's previous name: `migrate create` renames its column instead of dropping it. */
  renamed_from?: string
  /** `decimal`: digits in all (1–38), and after the point (0–precision, default 0). */
  precision?: number
  scale?: number
  /** `json`: the JSON Schema its values must satisfy; none: any JSON value. */
  schema?: Record<string, unknown> | boolean
  /** `array`: what each item is, and how many there may be. */
  items?: ManifestArrayItems
  max_items?: number
}

/** An `array` field's `items`: one scalar type and that type's options. */
export type ManifestArrayItems = { type: ArrayItemType } & Pick<
  ManifestField,
  'enum' | 'minimum' | 'maximum' | 'min_length' | 'max_length' | 'pattern' | 'format'
>

/**
 * `relations:` entry. Without `many` it is a belongs-to (adds `<name>_id`);
 * with `many: true` a has-many, the inverse of a link on the target.
 */
export interface ManifestRelation {
  resource: string
  required?: boolean
  many?: boolean
  /** Has-many only: the target's belongs-to relation, or its parent key, that points back. */
  via?: string
  /** Many-to-many: the join resource linking the two (it has a belongs-to to each); with `many: true`. */
  through?: string
  /** Has-many only: overrides `limits.include_items_max` for this relation. */
  max_items?: number
  on_delete?: OnDelete
  /** Belongs-to only: the relation's previous name; `migrate create` renames its `<name>_id` column. */
  renamed_from?: string
}

export interface ManifestCache {
  max_age: number
}

/** `limits.rate` or a resource's `rate`: `per` is `30s`, `1m`, `1h` (parseRatePeriod). */
export interface ManifestRate {
  requests: number
  per: string
}

/** `limits.rate`: a rate, and how many leading bits of an IPv6 address name one client. */
export interface ManifestServiceRate extends ManifestRate {
  ipv6_prefix?: number
}

export interface ManifestConcurrency {
  require_if_match?: boolean
}

/** `http:` */
export interface ManifestHttp {
  /** A hop count, or the proxies' addresses and CIDRs (checked by HTTP_TRUST_PROXY). */
  trust_proxy?: number | string[]
  cors?: { origins: string[]; max_age?: number }
}

export interface ManifestResource {
  /** The resource's previous name: `migrate create` renames its table instead of dropping it. */
  renamed_from?: string
  singular?: string
  parent?: string
  on_delete?: OnDelete
  fields?: Record<string, ManifestField>
  relations?: Record<string, ManifestRelation>
  include?: string[]
  /** Composite unique constraints: each a list of field names (foreign keys allowed) unique together. */
  unique?: string[][]
  sort?: string[]
  filter?: Record<string, FilterOperator[]>
  cache?: ManifestCache
  /** How page requests count without `count=`; default `limits.count`, then `exact`. */
  count?: CountStrategy
  /** What `GET /<resource>/aggregates` may group by and compute; no aggregates route without it. */
  aggregate?: ManifestAggregate
  concurrency?: ManifestConcurrency
  rate?: ManifestRate
  /** `owner: { field, claim, scheme? }`: a server-managed string column set from the caller's claim on create. */
  owner?: { field: string; claim: string; scheme?: string }
  /** Who may do what; operations without a rule take `auth.default`. `deleted`: see soft_delete. */
  access?: Partial<Record<AccessOperation | 'deleted' | 'all', ManifestAccessRule>>
  /** DELETE stamps `deleted_at`; `access.deleted` decides who sees deleted rows and restores them. */
  soft_delete?: boolean
  /** The hooks the app module exports for this resource (checked against the module by check and serve). */
  hooks?: HookName[]
  /** Read-only fields the app module's `compute.<resource>` returns; never stored. */
  computed?: Record<string, { type: FieldType; nullable?: boolean }>
  /** A resource with no table: only its declared `operations`, at `/<resource>/<operation>`. */
  collection_only?: boolean
  /** Custom operations, keyed by their path segment: `/<resource>/{<singular>_id}/<operation>`. */
  operations?: Record<string, ManifestOperation>
}

/** `aggregate:` of a resource: whitelists, like `filter:`. */
export interface ManifestAggregate {
  group_by?: string[]
  functions?: Record<string, AggregateFunction[]>
  /** Overrides `limits.aggregate_groups_max` for this resource. */
  groups_max?: number
}

/** One custom operation: its handler is the app module's `operations['<resource>.<operation>.<method name>']`. */
export interface ManifestOperation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** The JSON body's fields; none: the operation takes no body. */
  body?: Record<string, ManifestField>
  /** Query parameters, each a scalar field. */
  query?: Record<string, ManifestField>
  /** A resource's name (its record is the response), or a shape of its own. */
  responds?: string | { fields: Record<string, ManifestField>; many?: boolean }
  /** The success status: default 201 for POST, 204 without `responds`, else 200. */
  status?: number
  /** Who may call it; default `auth.default`. */
  access?: ManifestAccessRule
}

/** One access rule as written: a keyword, a scope requirement, or a list meaning any of them. */
export type ManifestAccessRule = ManifestAccessAlternative | ManifestAccessAlternative[]
export type ManifestAccessAlternative = 'public' | 'authenticated' | 'owner' | { scopes: string[]; scheme?: string }

/** `auth.schemes` entry: the keys of its `type` only (check-auth.ts enforces which). */
export interface ManifestAuthScheme {
  type: 'jwt' | 'api_key'
  secret_env?: string
  jwks_url?: string
  issuer?: string
  audience?: string
  algorithms?: string[]
  scopes_claim?: string
  clock_tolerance_s?: number
  max_ttl_s?: number
  header?: string
  keys_env?: string
}

/** `versions:` entry; `{}` for a current version. */
export interface ManifestVersion {
  /** `YYYY-MM-DD` (UTC): deprecated from that day on (RFC 9745 `Deprecation`, `meta.deprecated`). */
  deprecated?: string
  /** `YYYY-MM-DD` (UTC): may stop answering from that day on (RFC 8594 `Sunset`, `meta.sunset`). */
  sunset?: string
  /** Absolute http(s) URL of the migration guide; default: the generated one. */
  guide?: string
  /** `true`: serves exactly its published contract; what newer versions add stays out once declared. */
  frozen?: boolean
  /** Breaking changes from the previous version; parsed by parseVersionChanges. */
  changes?: ManifestVersionChange[]
}

/** One `changes` entry as written: exactly one kind, and `why`. */
export interface ManifestVersionChange {
  rename_field?: { resource: string; from: string; to: string }
  remove_field?: { resource: string; field: string; was: ManifestField; filter?: FilterOperator[]; sort?: boolean }
  add_field?: { resource: string; field: string; older_value?: string | number | boolean }
  rename_resource?: { from: string; to: string }
  reroot_resource?: { resource: string; from_parent: string }
  remove_resource?: { resource: string; was: ManifestResource }
  add_resource?: { resource: string }
  add_aggregate?: { resource: string }
  add_soft_delete?: { resource: string }
  change_access?: { resource: string; operation: AccessOperation | 'all'; was: ManifestAccessRule }
  why: string
}

export interface Manifest {
  restmint: 1
  service: { title: string; description?: string; base_url?: string }
  limits?: { [key in keyof typeof DEFAULT_LIMITS]?: number } & { rate?: ManifestServiceRate; count?: CountStrategy }
  versions: Record<string, ManifestVersion>
  resources: Record<string, ManifestResource>
  /** `yaml: true` also writes `openapi.yaml`. */
  openapi?: { yaml?: boolean }
  /** Service-wide default of `resources.<name>.cache`. */
  cache?: ManifestCache
  /** Authentication schemes, and the access of operations without a rule. */
  auth?: { schemes: Record<string, ManifestAuthScheme>; default?: 'public' | 'authenticated' }
  /** Service-wide default of `resources.<name>.concurrency`. */
  concurrency?: ManifestConcurrency
  http?: ManifestHttp
  /** The app module's path, relative to the manifest: hooks, computed fields, operations. */
  app?: string
}
