import type { ResourceNames } from './derive-names.js'

/**
 * Every name the generator gives to something in a namespace shared between
 * resources (or with restmint's own declarations), in one place: the
 * renderers take their names from here, and NAME_COLLISION checks the same
 * lists, so a manifest that validates cannot produce two declarations with
 * one name.
 *
 * Names local to one resource's own files (its types file, its routes file)
 * are not listed: each is built from the type name with a distinct suffix,
 * or is fixed and cannot be spelled by a derived name (`rules`, `tables`).
 */

/** The component names of one resource's schemas, which are also its TypeScript type names. */
export interface ResourceComponentNames {
  readonly record: string
  readonly create: string
  readonly replace: string
  readonly update: string
  readonly nestedCreate: string
  readonly nestedReplace: string
  readonly nestedUpdate: string
  readonly page: string
  /** The aggregates route's 200 body, for resources with `aggregate:`. */
  readonly aggregatePage: string
}

/** Names a resource's schemas after its TypeScript type: `OrderItem`, `OrderItemCreate`, `OrderItemPage`… */
export function nameResourceComponents(typeName: string): ResourceComponentNames {
  return {
    record: typeName,
    create: `${typeName}Create`,
    replace: `${typeName}Replace`,
    update: `${typeName}Update`,
    nestedCreate: `${typeName}NestedCreate`,
    nestedReplace: `${typeName}NestedReplace`,
    nestedUpdate: `${typeName}NestedUpdate`,
    page: `${typeName}Page`,
    aggregatePage: `${typeName}AggregatePage`,
  }
}

/** The OpenAPI component of a json field's schema: `ProductSettingsDocument` for `settings` of `products`. */
export function documentComponentName(typeName: string, field: string): string {
  const pascal = field
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
  return `${typeName}${pascal}Document`
}

/** restmint's own OpenAPI schemas, next to the resources' ones in `components.schemas`. */
export const SHARED_SCHEMAS = {
  pageMeta: 'PageMeta',
  pageLinks: 'PageLinks',
  problem: 'Problem',
  includeTruncation: 'IncludeTruncation',
} as const

/** schema.ts: the table definition constant of one resource, `orderItemsTable`. Ends in `Table`, never `Tables`. */
export function tableConstantName(identifier: string): string {
  return `${identifier}Table`
}

/** schema.ts: every table definition, in creation order. Cannot end in `Table`, so no resource spells it. */
export const TABLE_LIST_NAME = 'allTables'

/** `<version>/routes/<resource>.ts`, imported by `<version>/index.ts`: `registerOrderItemRoutes`. */
export function routesFunctionName(typeName: string): string {
  return `register${typeName}Routes`
}

/** `<version>/index.ts`: `registerVersionV1`. Does not end in `Routes`, so no resource's function spells it. */
export function versionFunctionName(version: string): string {
  return `registerVersion${version.toUpperCase()}`
}

/** What an OpenAPI operation does, by route kind and method. */
/**
 * `migrate-v1-to-v2`: the migration guide from `older` to the next version,
 * `docs/<name>.md` in the output and `/docs/<name>` on the server.
 */
export function migrationGuideName(older: string, newer: string): string {
  return `migrate-${older}-to-${newer}`
}

export type OperationVerb = 'list' | 'create' | 'get' | 'replace' | 'update' | 'delete' | 'aggregate'

export const OPERATION_VERBS: readonly OperationVerb[] = [
  'list',
  'create',
  'get',
  'replace',
  'update',
  'delete',
  'aggregate',
]

/**
 * `listOrderItems`, `getOrderItem`… for top-level routes; nested routes put
 * the parent type and `_` first (`listOrder_Items`, `getOrder_Item`). Type
 * names never contain `_`, and a resource has one parent, so nested ids
 * cannot collide with top-level ones, nor with each other while type names
 * are unique.
 */
export function operationId(verb: OperationVerb, resource: ResourceNames, parentTypeName: string | null): string {
  // A list and the aggregates are about the whole collection: `listPosts`, `aggregatePosts`.
  const subject = verb === 'list' || verb === 'aggregate' ? upperFirst(resource.identifier) : resource.typeName
  return parentTypeName === null ? `${verb}${subject}` : `${verb}${parentTypeName}_${subject}`
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** One generated name in a shared namespace, with what it names, for NAME_COLLISION messages. */
export interface GeneratedName {
  /** The namespace, as a phrase: `the OpenAPI schema`, `the schema.ts export`. */
  readonly scope: string
  readonly name: string
  /**
   * What it names. For a resource's names a noun phrase without article
   * (`page envelope`); for restmint's own a whole description (`restmint's
   * schema of ...`).
   */
  readonly role: string
  /** Whether the name comes from the type name (so `singular:` changes it) rather than the resource name. */
  readonly fromTypeName: boolean
}

const SCHEMA = 'the OpenAPI schema'
const SCHEMA_EXPORT = 'the schema.ts export'
const INDEX_NAME = 'the <version>/index.ts name'
const OPERATION = 'the OpenAPI operationId'

function fixed(scope: string, name: string, role: string): GeneratedName {
  return { scope, name, role, fromTypeName: false }
}

/**
 * Names restmint declares itself in the namespaces resources share: the
 * shared OpenAPI schemas and the fixed declarations of schema.ts and the
 * version index. (The version function is left out: it never ends in
 * `Routes`, so no resource's function can spell it.)
 */
export const FIXED_NAMES: readonly GeneratedName[] = [
  fixed(SCHEMA, SHARED_SCHEMAS.pageMeta, "restmint's schema of the page metadata of every collection"),
  fixed(SCHEMA, SHARED_SCHEMAS.pageLinks, "restmint's schema of the page links of every collection"),
  fixed(SCHEMA, SHARED_SCHEMAS.problem, "restmint's schema of the problem details every error response carries"),
  fixed(SCHEMA, SHARED_SCHEMAS.includeTruncation, "restmint's schema of an embedded array cut at include_items_max"),
  fixed(SCHEMA_EXPORT, 'TableDefinition', 'the runtime type schema.ts imports'),
  fixed(SCHEMA_EXPORT, TABLE_LIST_NAME, 'the list of every table'),
  fixed(INDEX_NAME, 'FastifyInstance', 'a type the version index imports from Fastify'),
  fixed(INDEX_NAME, 'RouteFactory', 'a type the version index imports from restmint/runtime'),
]

/**
 * The shared-namespace names one resource generates. Names derived from the
 * resource name (its identifier) come first, so when two resources spell
 * both the same (`room-1s`, `room1s`) the first collision found is one only
 * renaming fixes. Nested operationIds (`getOrder_Item`) are left out: they
 * contain `_`, which no other name does, and are unique while type names are.
 */
export function listGeneratedNames(names: ResourceNames, nested: boolean, aggregates = false): GeneratedName[] {
  const byName = (scope: string, name: string, role: string): GeneratedName => ({
    scope,
    name,
    role,
    fromTypeName: false,
  })
  const byType = (scope: string, name: string, role: string): GeneratedName => ({
    scope,
    name,
    role,
    fromTypeName: true,
  })
  const components = nameResourceComponents(names.typeName)
  return [
    byName(SCHEMA_EXPORT, tableConstantName(names.identifier), 'table definition'),
    byName(OPERATION, operationId('list', names, null), 'list operation'),
    byType(SCHEMA, components.record, 'record type'),
    byType(SCHEMA, components.create, 'create body'),
    byType(SCHEMA, components.replace, 'replace body'),
    byType(SCHEMA, components.update, 'update body'),
    ...(nested
      ? [
          byType(SCHEMA, components.nestedCreate, 'nested create body'),
          byType(SCHEMA, components.nestedReplace, 'nested replace body'),
          byType(SCHEMA, components.nestedUpdate, 'nested update body'),
        ]
      : []),
    byType(SCHEMA, components.page, 'page envelope'),
    byType(INDEX_NAME, routesFunctionName(names.typeName), 'route registration function'),
    ...(aggregates
      ? [
          byName(OPERATION, operationId('aggregate', names, null), 'aggregate operation'),
          byType(SCHEMA, components.aggregatePage, 'aggregates page envelope'),
        ]
      : []),
    ...OPERATION_VERBS.filter((verb) => verb !== 'list' && verb !== 'aggregate').map((verb) =>
      byType(OPERATION, operationId(verb, names, null), `${verb} operation`),
    ),
  ]
}
