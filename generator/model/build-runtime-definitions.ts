import { isJsonValued, type ArrayItemType } from '../../runtime/contract/field-type.js'
import { isDeepStrictEqual } from 'node:util'
import { DEFAULT_COUNT_STRATEGY } from '../../runtime/contract/count-strategy.js'
import type { ApiAuth, AuthScheme, TableAccess } from '../../runtime/contract/access-rule.js'
import { MAX_INDEXED_TEXT_LENGTH } from '../../runtime/contract/max-indexed-text-bytes.js'
import type { ApiHttp } from '../../runtime/contract/define-api.js'
import type { QueryRules } from '../../runtime/contract/query-rules.js'
import type {
  ColumnDefinition,
  IndexDefinition,
  RelationDefinition,
  TableDefinition,
} from '../../runtime/contract/table-definition.js'
import type { FieldModel, HttpModel, ResourceModel, StorageMapping } from './api-model.js'

/**
 * The runtime's definitions the generated files declare, built from the
 * model: tables (schema.ts, translate modules), query rules (routes files),
 * HTTP options and auth (server.ts). Render writes them as they are.
 */

/** What a table definition is built from: a resource without its own definitions. */
type TableSource = Omit<ResourceModel, 'definition' | 'queryRules'>

/** The runtime's view of a resource's table (written into generated schema.ts). */
export function buildTableDefinition(
  resource: TableSource,
  resources: readonly Pick<ResourceModel, 'name' | 'table'>[],
  includeItemsMax: number,
): TableDefinition {
  const tableOf = (name: string): string => resources.find((candidate) => candidate.name === name)!.table
  const isOwner = (field: FieldModel): boolean => resource.owner?.field === field.name
  const columns: ColumnDefinition[] = resource.fields.map((field) => ({
    name: field.name,
    type: field.type,
    nullable: field.storedNullable,
    unique: field.unique,
    // The owner field is the server's to set (FieldModel.serverManaged), but the storage writes it as given:
    // ColumnDefinition.readOnly is storage-managed, which the owner is not.
    readOnly: field.serverManaged && !isOwner(field),
    ...(isOwner(field) ? { owner: true as const } : {}),
    default: field.default,
    ...(field.enum ? { enum: field.enum } : {}),
    ...(field.format ? { format: field.format } : {}),
    // What the body validators also check: sample rows (--seed) are made to satisfy it.
    ...(field.minimum !== null ? { minimum: field.minimum } : {}),
    ...(field.maximum !== null ? { maximum: field.maximum } : {}),
    ...(field.minLength !== null ? { minLength: field.minLength } : {}),
    ...(field.maxLength !== null ? { maxLength: field.maxLength } : {}),
    ...(field.pattern !== null ? { pattern: field.pattern } : {}),
    ...(field.references
      ? { references: { table: tableOf(field.references.resource), onDelete: field.references.onDelete } }
      : {}),
    ...(field.decimal ? { precision: field.decimal.precision, scale: field.decimal.scale } : {}),
    ...(field.items ? { items: { type: field.items.type as ArrayItemType } } : {}),
    ...(field.jsonSchema !== undefined ? { schema: field.jsonSchema } : {}),
  }))
  const relations: RelationDefinition[] = resource.relations.map((relation) => ({
    name: relation.name,
    kind: relation.kind,
    table: tableOf(relation.resource),
    column: relation.foreignKey,
    ...(relation.listPath !== null ? { listPath: relation.listPath } : {}),
    ...(relation.through !== null
      ? { through: { table: tableOf(relation.through.resource), targetColumn: relation.through.targetKey } }
      : {}),
    // Only a relation's own max_items; the runtime falls back to the API-wide limit.
    ...(relation.maxItems !== null && relation.maxItems !== includeItemsMax ? { maxItems: relation.maxItems } : {}),
  }))
  return {
    name: resource.table,
    resource: resource.name,
    singular: resource.singular,
    columns,
    referencedBy: resource.referencedBy.map((reference) => ({
      table: tableOf(reference.resource),
      resource: reference.resource,
      column: reference.foreignKey,
      onDelete: reference.onDelete,
    })),
    relations,
    indexes: buildIndexes(resource),
    ...(resource.softDelete ? { softDelete: true as const } : {}),
    ...(resource.unique.length > 0 ? { uniques: resource.unique } : {}),
  }
}

/**
 * `[field, id]` per sortable field, so keyset pages seek instead of scanning,
 * then `[field]` per filterable field no index covers yet: neither `id`, a
 * unique or foreign key column (the storage indexes those), nor the first
 * column of a sort index. Strings of unbounded length are left out (see
 * MAX_INDEXED_TEXT_LENGTH).
 */
function buildIndexes(resource: TableSource): IndexDefinition[] {
  const fieldOf = (name: string): FieldModel | undefined => resource.fields.find((field) => field.name === name)
  const indexes: IndexDefinition[] = []
  for (const name of resource.sortable) {
    const field = fieldOf(name)
    if (name !== 'id' && field !== undefined && isIndexable(field)) indexes.push({ columns: [name, 'id'] })
  }
  for (const { field: name } of resource.filters) {
    const field = fieldOf(name)
    if (field === undefined || !isIndexable(field) || field.name === 'id' || field.unique || field.references) continue
    if (!indexes.some((index) => index.columns[0] === name)) indexes.push({ columns: [name] })
  }
  return indexes
}

function isIndexable(field: FieldModel): boolean {
  // A document can outgrow what an index entry holds (PostgreSQL: about 2.7 kB), and only `null` filters it.
  if (isJsonValued(field.type)) return false
  if (field.type !== 'string' || field.enum !== null || field.format === 'uuid') return true
  return field.maxLength !== null && field.maxLength <= MAX_INDEXED_TEXT_LENGTH
}

/** The runtime's ApiHttp, with only what the manifest sets; null when it sets nothing. */
export function buildRuntimeHttp({ trustProxy, cors }: HttpModel): ApiHttp | null {
  if (trustProxy === null && cors === null) return null
  return {
    ...(trustProxy !== null ? { trustProxy } : {}),
    ...(cors !== null
      ? {
          cors: {
            origins: cors.origins,
            ...(cors.maxAgeSeconds !== null ? { maxAgeSeconds: cors.maxAgeSeconds } : {}),
            allowedHeaders: cors.allowedHeaders,
          },
        }
      : {}),
  }
}

/** The runtime's QueryRules of a resource, as routes files declare them. */
export function buildRuntimeRules(
  resource: Pick<ResourceModel, 'sortable' | 'filters' | 'includes' | 'cacheControl' | 'count' | 'aggregate'>,
): QueryRules {
  return {
    sortable: resource.sortable,
    filters: Object.fromEntries(resource.filters.map((filter) => [filter.field, filter.operators])),
    includes: resource.includes,
    cacheControl: resource.cacheControl,
    // Left out at the default, as the runtime assumes it: routes files say only what differs.
    ...(resource.count === DEFAULT_COUNT_STRATEGY ? {} : { count: resource.count }),
    ...(resource.aggregate === null ? {} : { aggregate: resource.aggregate }),
  }
}

/** The schemes, and each table's rules (the newest version's: every version reads the same rows). */
export function buildApiAuth(
  authSchemes: readonly AuthScheme[],
  storage: readonly Pick<ResourceModel, 'table' | 'access' | 'owner'>[],
): ApiAuth | null {
  if (authSchemes.length === 0) return null
  const resources = storage.flatMap((resource) =>
    resource.access ? [[resource.table, { access: resource.access, owner: resource.owner }] as const] : [],
  )
  return { schemes: authSchemes, resources: Object.fromEntries(resources) }
}

/**
 * The access rules a version keeps where they differ from its tables' (a
 * newer version's `change_access`), by table; null when it keeps none.
 */
export function buildVersionAccess(
  resources: readonly Pick<ResourceModel, 'name' | 'access'>[],
  storage: ReadonlyMap<string, StorageMapping>,
): Record<string, TableAccess> | null {
  const differing = resources.flatMap((resource) => {
    const stored = storage.get(resource.name)?.storage
    if (!stored || !resource.access || isDeepStrictEqual(resource.access, stored.access)) return []
    return [[stored.table, { access: resource.access, owner: stored.owner }] as const]
  })
  return differing.length === 0 ? null : Object.fromEntries(differing)
}
