/**
 * Every diagnostic code the manifest stages can report, with what it guards.
 * IDs are stable: tools and users match on them. Each one is documented in
 * docs/diagnostics.md (a test keeps the two in step).
 */
export const RULES = {
  YAML_SYNTAX: 'The manifest must be well-formed YAML (one document).',
  YAML_DUPLICATE_KEY: 'A key may appear only once in a map.',
  SCHEMA: 'Values must have the type and form manifest.schema.json gives them; required keys must be present.',
  UNKNOWN_KEY: 'Only the keys of manifest format 1 are accepted; near misses get a "did you mean".',
  VERSION_NAME: 'Version names are path prefixes of the form v<major>: v1, v2, ...',
  VERSION_CHANGES_FIRST: 'The oldest version lists no `changes`: there is no version before it.',
  VERSION_CHANGES_MISSING:
    'Every version after the oldest lists its breaking changes in `changes`: a new major exists only for them.',
  VERSION_CHANGE_KIND:
    'Each `changes` entry names exactly one change: rename_field, remove_field, add_field, rename_resource, reroot_resource, remove_resource, add_resource, add_aggregate, add_soft_delete or change_access.',
  VERSION_CHANGE_TARGET:
    "A change names what it changes as it is: what a rename leads to and an added field exist in the newer version; what a rename leads from and what was removed do not; a re-rooted resource's from_parent is a resource of the older version, kept as a belongs-to; a removed name is not used again while an older version serves it.",
  VERSION_CHANGE_OLDER_VALUE:
    "add_field's `older_value` is given when the field is required in the newer version without a default, only then, and fits the field's type, enum and bounds.",
  VERSION_WAS_PUBLISHED:
    "A removed field's or resource's `was` describes the older version as its published document (`published/<version>.openapi.json`) does: `restmint check` compares them.",
  VERSION_CHANGE_NOT_BREAKING:
    "Every declared change is a breaking difference between the two versions' generated documents (`validate` judges what the manifest tells, `restmint check` compares the documents): an addition no client notices needs no new major, unless the older version is frozen.",
  VERSION_SUNSET_WITHOUT_DEPRECATED: 'A version with a `sunset` is `deprecated` too: the sunset ends a deprecation.',
  VERSION_SUNSET_TOO_EARLY:
    "A version's `sunset` is at least six months after its `deprecated` date, so consumers have time to migrate.",
  VERSION_DEPRECATED_WITHOUT_SUCCESSOR:
    'A deprecated version has a newer version that is not deprecated: what its consumers migrate to.',
  VERSION_FROZEN_WITHOUT_DEPRECATED:
    'A `frozen` version is deprecated: a current version grows with the API, a deprecated one may keep its published contract.',
  VERSION_GUIDE_WITHOUT_DEPRECATED:
    'A `guide` belongs to a deprecated version: only its responses link the guide (`Link: rel="deprecation"`).',
  RATE_PERIOD:
    "A rate limit's `per` is a whole number of seconds, minutes or hours (`30s`, `1m`, `1h`), at most a day.",
  RATE_WITHOUT_DEFAULT:
    "A resource's `rate` overrides `limits.rate`, which must be set too: it is every other client request's limit.",
  HTTP_TRUST_PROXY:
    '`http.trust_proxy` is a number of proxy hops or a list of proxy addresses and CIDRs; never one that trusts every address, which would let any client choose the address rate limits count.',
  HTTP_CORS_ORIGIN:
    '`http.cors.origins` are absolute origins (`https://app.example.com`: http or https, a host, an optional port, no path), or `*` alone.',
  LIMITS_RANGE:
    "limits.per_page_default, limits.include_items_max and a relation's max_items must not exceed limits.per_page_max (defaults included).",
  UNSAFE_NAME:
    'Resource, field, relation and singular names, and the identifiers and SQL names derived from them, must not be able to escape a path, a file name or an identifier: only letters, digits, hyphens and underscores, starting with a letter; not __proto__, constructor or prototype; field and relation names, and the identifier of a resource, not JavaScript reserved words; SQL table and column names at most 63 characters.',
  NAMING_LOWERCASE: 'Resource names are entirely lowercase.',
  NAMING_HYPHENS: 'Multi-word resource names are separated by single hyphens, never underscores, spaces or camelCase.',
  NAMING_NO_VERBS: 'Resource names contain no verbs: the HTTP method carries the action (see ACTION_VERBS).',
  NAMING_PLURAL:
    'Resource and operation names are plural nouns (the last hyphen-separated word is checked, or the word before `by` or `per`: `sales-by-month`), unless `singular:` is declared.',
  SINGULAR_COLLISION: 'No two resources share a singular: it names their TypeScript type and their foreign keys.',
  NAME_COLLISION:
    'No two resources, and no resource and restmint itself, generate the same name: OpenAPI schemas (record, bodies, page envelope; Problem, PageMeta, PageLinks), operationIds, table constants and route functions.',
  PARENT_UNKNOWN: '`parent` names a resource declared in the manifest.',
  PARENT_CYCLE: 'Parent chains end: no resource is its own parent or ancestor.',
  ON_DELETE_WITHOUT_PARENT: '`on_delete` is only meaningful on a resource with a `parent`.',
  ON_DELETE_SET_NULL_REQUIRED:
    '`on_delete: set_null` clears a foreign key, so it needs a key that may be null: not on a `required` relation, nor on a `parent` (whose key is always required).',
  FIELD_LOWER_SNAKE_CASE: 'Field and relation names are lower_snake_case.',
  FIELD_RESERVED:
    "Generated fields (id, created_at, updated_at, the parent foreign key, a relation's <name>_id, deleted_at with soft_delete) and query parameter names (page, per_page, sort, include, cursor, filter; deleted with soft_delete) cannot be declared as fields.",
  RANGE:
    'Field options fit the field type and each other: bounds for numbers, lengths/pattern/format for strings, minimum <= maximum, min_length <= max_length, pattern a valid regular expression.',
  ENUM_TYPE:
    'An enum belongs to a string, integer or number field, and every value in it fits the field type and bounds.',
  DECIMAL_DIGITS:
    'A decimal field has a `precision` from 1 to 38 (digits in all) and a `scale` from 0 to its precision (digits after the point).',
  JSON_SCHEMA:
    "A json field's `schema` is a valid JSON Schema (draft-07, compiled strictly as the body validators are), written inline: no `$ref`.",
  ARRAY_ITEMS:
    'An array field has `items` whose `type` is a scalar: string, integer, number, boolean, date or datetime.',
  FIELD_TYPE_OPTION:
    '`precision` and `scale` belong to decimal fields, `schema` to json fields, `items` and `max_items` to array fields; json and array fields are not unique, not sorted by, and have no default but null.',
  DEFAULT_TYPE: 'A default fits the field type, enum and bounds; `default: null` only on a nullable field.',
  RELATION_TARGET_UNKNOWN: "A relation's `resource` names a resource declared in the manifest.",
  RELATION_NAME_CLASH:
    "A relation's name, and a belongs-to's generated <name>_id, are not already names of the resource's fields (declared, generated, or another relation's key).",
  RELATION_OPTIONS:
    '`required` and `on_delete` belong to belongs-to relations; `via` and `max_items` to has-many ones (`many: true`).',
  RELATION_CYCLE:
    'Foreign keys (parents and belongs-to relations) do not loop between resources, or no order of CREATE TABLE could satisfy them.',
  HAS_MANY_INVERSE_MISSING:
    'A has-many relation needs a link back on its target: a belongs-to relation or `parent` pointing at this resource.',
  HAS_MANY_INVERSE_AMBIGUOUS: 'A has-many relation whose target has several links back names one with `via`.',
  THROUGH_LINKS:
    "A many-to-many relation's `through` names a join resource with a belongs-to relation (or parent) to each end: the resource declaring it and its target.",
  UNIQUE_UNKNOWN_FIELD:
    '`unique` lists lists of fields of the resource (declared or generated, foreign keys included), each field once.',
  FILTER_PATH:
    'A filter across relations (`tags.name`) follows relations `include:` lists, to a field of the last one: at most one has-many or many-to-many, and that one alone; belongs-to chains up to `limits.include_depth` relations.',
  HAS_MANY_VIA:
    '`via` names a link back on the target: one of its belongs-to relations to this resource, or its parent key.',
  INCLUDE_UNKNOWN:
    "Each segment of an include path names a relation: of this resource first, then of the previous segment's target.",
  INCLUDE_PREFIX: 'A nested include path (`items.product`) needs its prefix (`items`) in the list too.',
  INCLUDE_DEPTH: 'An include path has at most `limits.include_depth` segments.',
  SORT_UNKNOWN_FIELD: '`sort` lists fields of the resource.',
  FILTER_UNKNOWN_FIELD: '`filter` keys are fields of the resource.',
  FILTER_OPERATOR:
    'Filter operators fit the field type: contains and starts_with only on strings; gt, gte, lt, lte and in not on booleans; json and array fields only null.',
  AGGREGATE_UNKNOWN_FIELD: '`aggregate.group_by` and `aggregate.functions` name fields of the resource.',
  AGGREGATE_GROUP_TYPE:
    '`aggregate.group_by` fields have a type whose values repeat: string, integer (foreign keys too), boolean or date.',
  AGGREGATE_FUNCTION:
    'Aggregate functions fit the field type: sum and avg of integer and number fields; min and max of integer, number, string, date and datetime fields.',
  AGGREGATE_FIELD_TWICE: 'A field is either grouped by or aggregated, not both: a group names each field once.',
  AGGREGATE_FIELD_NAME:
    'A resource with `aggregate:` has no field named like a query parameter of its aggregates route (`group_by`, `aggregate`).',
  RENAMED_FROM:
    '`renamed_from` gives the name a resource, field or belongs-to relation had before: of the same form, not its own name, not a name still in use, and claimed by one rename only.',
  MIGRATION_VALUE_NEEDED:
    'A column that becomes NOT NULL over existing rows (a required field added, a field no longer nullable, or a NOT NULL field whose type narrows) needs a value for them: a `default`, or `migrate create --backfill resource.field=value`.',
  MIGRATION_DATA_LOSS:
    'A migration that drops a table or a column, or converts a type so that values can be lost, needs `migrate create --allow-data-loss`; a rename declared with `renamed_from` keeps the data.',
  MIGRATION_BACKFILL_UNUSED:
    'Each `--backfill` gives the value of a column that is added to existing rows or becomes NOT NULL in this migration.',
  AUTH_SCHEME_OPTIONS:
    'An auth scheme takes the keys of its type only (jwt: secret_env or jwks_url, issuer, audience, algorithms, scopes_claim, clock_tolerance_s, max_ttl_s; api_key: header, keys_env), and all the required ones.',
  AUTH_KEY_SOURCE: 'A jwt scheme takes its keys from exactly one of secret_env (HS*) and jwks_url (RS*/ES*/PS*).',
  AUTH_ALGORITHM_NONE: 'A jwt scheme never accepts algorithm none (unsigned tokens).',
  AUTH_ALGORITHM_MIX:
    "A jwt scheme's algorithms are all HS* (with secret_env) or all asymmetric (with jwks_url), never mixed: a public key must never verify an HMAC.",
  AUTH_SCHEME_UNKNOWN: "An access rule's `scheme` names a scheme of auth.schemes.",
  ACCESS_WITHOUT_AUTH:
    'A resource with `access` rules needs an `auth:` section: without schemes no caller could meet them.',
  OWNER_WITHOUT_AUTH:
    'A resource with `owner:` needs an `auth:` section: the owner comes from a claim of the credentials.',
  OWNER_SCHEME:
    "With several auth schemes, a resource's `owner` names the scheme whose callers own its rows: the same claim value from another scheme (another issuer, an API key id) is someone else.",
  ACCESS_OWNER_UNDECLARED: 'The `owner` access rule belongs to resources that declare `owner:`.',
  ACCESS_DELETED_WITHOUT_SOFT_DELETE:
    'The `deleted` access rule belongs to resources with `soft_delete: true`: elsewhere nothing stays deleted to see or restore.',
  OWNER_FIELD:
    '`owner.field` is a new lower_snake_case name: not a field the resource already has (declared or generated) nor a query parameter name.',
  OPERATION_PATH_CLASH:
    "A custom operation's path is its own: not the nested route of a child resource (`/orders/{order_id}/items`).",
  RESTORATIONS_PATH_TAKEN:
    'On a `soft_delete: true` resource, `/<resource>/{id}/restorations` restores a deleted record: no child resource, operation or has-many relation of it is named `restorations`.',
  OPERATION_BODY_METHOD: 'GET and DELETE operations take no body: their input is the path and `query:`.',
  OPERATION_RESPONDS_UNKNOWN:
    "An operation's `responds:` names a resource with records (not a `collection_only` one), or gives `{ fields }`.",
  OPERATION_STATUS: "An operation's `status` 204 has no body, so no `responds:`; any other status sends `responds:`.",
  OPERATIONS_WITHOUT_APP: 'A resource that declares `operations` needs `app:`, the module that exports their handlers.',
  OPERATION_HANDLER_MISSING:
    "Every declared operation has a handler in the app module: `operations['<resource>.<operation>.<method name>']`.",
  OPERATION_HANDLER_UNDECLARED:
    'Every handler the app module exports under `operations` is an operation the manifest declares.',
  COLLECTION_ONLY:
    'A `collection_only` resource has no table: it declares operations and nothing stored (fields, relations, parent, owner, access…), and no parent or relation points at it.',
  APP_MODULE_MISSING: '`app` names a module file that exists, relative to the manifest.',
  APP_MODULE_INVALID:
    "The `app` module loads, and its default export is `defineApp({...})`'s result: an object with `hooks`, `compute` and `operations`, each optional.",
  HOOKS_WITHOUT_APP:
    'A resource that lists `hooks` or declares `computed` fields needs `app:`, the module that exports them.',
  COMPUTE_NOT_EXPORTED: 'A resource with `computed` fields has a `compute.<resource>` function in the app module.',
  COMPUTE_NOT_DECLARED: "The app module's `compute.<resource>` functions belong to resources with `computed` fields.",
  COMPUTED_NAME_CLASH:
    "A computed field's name is not a name the resource's records already have: a field (declared or generated) or a relation.",
  HOOK_NOT_EXPORTED: "Every hook a resource's `hooks` lists is exported by the app module, under `hooks.<resource>`.",
  HOOK_NOT_DECLARED:
    "Every hook the app module exports is listed in its resource's `hooks` (the resource exists in the manifest), so the manifest says what runs.",
} as const satisfies Readonly<Record<string, string>>

export type RuleId = keyof typeof RULES

/** What NAMING_NO_VERBS knows about one verb. */
export interface ActionVerb {
  /** The HTTP method that already performs this action, if one does. */
  readonly method: 'GET' | 'POST' | 'PUT or PATCH' | 'DELETE' | null
  /** A plural noun naming the action as a resource of its own (`submit` → `submissions`). */
  readonly noun: string | null
  /**
   * `anywhere`: the word is a verb wherever it appears (`create-orders`).
   * `last`: the word is also a common noun modifier (`search-results`,
   * `login-attempts`), so it is flagged only as the last word, where it
   * would be the noun the collection is named after (`search`, `user-login`).
   */
  readonly position: 'anywhere' | 'last'
}

/**
 * The curated verbs NAMING_NO_VERBS flags, matched against whole
 * hyphen-separated words in their base form only: `update` is flagged,
 * `updates` (a plural noun) is not.
 */
export const ACTION_VERBS: Readonly<Record<string, ActionVerb>> = {
  create: { method: 'POST', noun: null, position: 'anywhere' },
  add: { method: 'POST', noun: null, position: 'anywhere' },
  insert: { method: 'POST', noun: null, position: 'anywhere' },
  new: { method: 'POST', noun: null, position: 'anywhere' },
  get: { method: 'GET', noun: null, position: 'anywhere' },
  fetch: { method: 'GET', noun: null, position: 'anywhere' },
  retrieve: { method: 'GET', noun: null, position: 'anywhere' },
  find: { method: 'GET', noun: null, position: 'anywhere' },
  update: { method: 'PUT or PATCH', noun: null, position: 'anywhere' },
  modify: { method: 'PUT or PATCH', noun: null, position: 'anywhere' },
  delete: { method: 'DELETE', noun: null, position: 'anywhere' },
  remove: { method: 'DELETE', noun: null, position: 'anywhere' },
  destroy: { method: 'DELETE', noun: null, position: 'anywhere' },
  submit: { method: null, noun: 'submissions', position: 'anywhere' },
  approve: { method: null, noun: 'approvals', position: 'anywhere' },
  cancel: { method: null, noun: 'cancellations', position: 'anywhere' },
  send: { method: null, noun: 'deliveries', position: 'anywhere' },
  validate: { method: null, noun: 'validations', position: 'anywhere' },
  verify: { method: null, noun: 'verifications', position: 'anywhere' },
  confirm: { method: null, noun: 'confirmations', position: 'anywhere' },
  execute: { method: null, noun: 'executions', position: 'anywhere' },
  perform: { method: null, noun: null, position: 'anywhere' },
  do: { method: null, noun: null, position: 'anywhere' },
  make: { method: null, noun: null, position: 'anywhere' },
  calculate: { method: null, noun: 'calculations', position: 'anywhere' },
  compute: { method: null, noun: 'computations', position: 'anywhere' },
  generate: { method: null, noun: null, position: 'anywhere' },
  enable: { method: 'PUT or PATCH', noun: null, position: 'anywhere' },
  disable: { method: 'PUT or PATCH', noun: null, position: 'anywhere' },
  activate: { method: null, noun: 'activations', position: 'anywhere' },
  deactivate: { method: null, noun: 'deactivations', position: 'anywhere' },
  subscribe: { method: null, noun: 'subscriptions', position: 'anywhere' },
  unsubscribe: { method: 'DELETE', noun: null, position: 'anywhere' },
  assign: { method: null, noun: 'assignments', position: 'anywhere' },
  unassign: { method: 'DELETE', noun: null, position: 'anywhere' },
  publish: { method: null, noun: 'publications', position: 'anywhere' },
  search: { method: 'GET', noun: 'searches', position: 'last' },
  list: { method: 'GET', noun: null, position: 'last' },
  read: { method: 'GET', noun: null, position: 'last' },
  show: { method: 'GET', noun: null, position: 'last' },
  view: { method: 'GET', noun: null, position: 'last' },
  query: { method: 'GET', noun: 'queries', position: 'last' },
  filter: { method: 'GET', noun: null, position: 'last' },
  sort: { method: 'GET', noun: null, position: 'last' },
  count: { method: 'GET', noun: null, position: 'last' },
  edit: { method: 'PUT or PATCH', noun: null, position: 'last' },
  set: { method: 'PUT or PATCH', noun: null, position: 'last' },
  change: { method: 'PUT or PATCH', noun: null, position: 'last' },
  save: { method: 'PUT or PATCH', noun: null, position: 'last' },
  reset: { method: null, noun: 'resets', position: 'last' },
  reject: { method: null, noun: 'rejections', position: 'last' },
  register: { method: null, noun: 'registrations', position: 'last' },
  login: { method: null, noun: 'sessions', position: 'last' },
  logout: { method: 'DELETE', noun: null, position: 'last' },
  signin: { method: null, noun: 'sessions', position: 'last' },
  signup: { method: null, noun: 'registrations', position: 'last' },
  run: { method: null, noun: 'runs', position: 'last' },
  process: { method: null, noun: 'processes', position: 'last' },
  import: { method: null, noun: 'imports', position: 'last' },
  export: { method: null, noun: 'exports', position: 'last' },
  upload: { method: null, noun: 'uploads', position: 'last' },
  download: { method: null, noun: 'downloads', position: 'last' },
  check: { method: null, noun: 'checks', position: 'last' },
  sync: { method: null, noun: 'syncs', position: 'last' },
  start: { method: null, noun: null, position: 'last' },
  stop: { method: null, noun: null, position: 'last' },
  copy: { method: null, noun: 'copies', position: 'last' },
  move: { method: null, noun: 'moves', position: 'last' },
  pay: { method: null, noun: 'payments', position: 'last' },
  checkout: { method: null, noun: 'checkouts', position: 'last' },
}
