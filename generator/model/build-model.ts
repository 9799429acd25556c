import { SOFT_DELETE_FIELD } from '../../runtime/contract/field-type.js'
import type { ApiLimits } from '../../runtime/contract/api-limits.js'
import type { Manifest, ManifestRelation, ManifestResource } from '../manifest/manifest.js'
import { DEFAULT_LIMITS } from '../../runtime/contract/api-limits.js'
import { foreignKeyOf, relationKeyOf, deriveResourceNames } from '../names/derive-names.js'
import { listResourceRoutes } from '../../runtime/contract/resource-routes.js'
import { orderResourceFields } from '../manifest/order-resource-fields.js'
import type {
  ApiModel,
  FieldModel,
  ParentModel,
  ReferenceModel,
  ResourceModel,
  RouteModel,
  VersionModel,
} from './api-model.js'
import {
  buildAggregateQueryParameters,
  buildItemQueryParameters,
  buildListQueryParameters,
} from './build-query-parameters.js'
import { buildQueryRules } from './build-query-rules.js'
import { buildDeprecation } from './build-deprecation.js'
import { buildAuthSchemes, buildResourceAccess } from './build-access.js'
import { buildHttp, buildRatePolicy, buildServiceRatePolicy } from './build-http.js'
import {
  buildApiAuth,
  buildRuntimeHttp,
  buildRuntimeRules,
  buildTableDefinition,
  buildVersionAccess,
} from './build-runtime-definitions.js'
import { buildRelations } from './build-relations.js'
import { buildField } from './build-field.js'
import { buildOperations } from './build-operations.js'
import { withoutCollectionOnly } from '../manifest/without-collection-only.js'
import { deriveVersions, type DerivedVersions } from '../versions/derive-versions.js'
import { mapVersionStorage } from './map-version-storage.js'
import { listSuccessorRoutes } from './list-successor-routes.js'

/**
 * Expands a validated manifest into the normalized model. Assumes
 * validateManifest found no errors: names are safe, parents and relation
 * targets exist, and every has-many has its link back.
 */
export function buildModel(
  declared: Manifest,
  manifestFile: string,
  { versions: derived, storage }: DerivedVersions = deriveVersions(declared),
): ApiModel {
  // Resources with a table; collection_only ones only add operations (buildOperations).
  const manifest = { ...declared, resources: withoutCollectionOnly(declared.resources) }
  const limits = buildLimits(manifest.limits ?? {})
  const resources = buildResources({ ...manifest, resources: storage }, limits)
  const newest = keepsRetired(storage, manifest.resources) ? buildResources(manifest, limits) : resources
  const http = buildHttp(manifest)
  const authSchemes = buildAuthSchemes(manifest)
  return {
    manifestFile,
    service: {
      title: manifest.service.title,
      description: manifest.service.description ?? null,
      baseUrl: manifest.service.base_url ?? null,
    },
    limits,
    rate: buildServiceRatePolicy(manifest.limits?.rate),
    http,
    openapiYaml: manifest.openapi?.yaml ?? false,
    appModule: manifest.app ?? null,
    computed: Object.fromEntries(
      Object.entries(manifest.resources).flatMap(([name, resource]) =>
        resource.computed
          ? [[name, Object.fromEntries(Object.entries(resource.computed).map(([field, { type }]) => [field, type]))]]
          : [],
      ),
    ),
    hooks: Object.fromEntries(
      Object.entries(manifest.resources).flatMap(([name, resource]) =>
        resource.hooks?.length ? [[name, resource.hooks]] : [],
      ),
    ),
    versions: withSuccessorRoutes(
      Object.keys(manifest.versions).map((name) => {
        const { changes, derivedFrom, toNewer, toStorage, ...version } = derived.find((each) => each.name === name)!
        const versionResources =
          derivedFrom === null ? newest : buildResources({ ...manifest, resources: version.resources }, limits)
        const storage = mapVersionStorage(resources, versionResources, toStorage)
        return {
          name,
          prefix: `/${name}`,
          changes,
          resources: versionResources,
          deprecation: buildDeprecation(name, manifest.versions),
          toNewer,
          storage,
          access: storage && buildVersionAccess(versionResources, storage),
          operations: buildOperations(declared, version.resources),
        }
      }),
    ),
    resources,
    authSchemes,
    runtime: { http: buildRuntimeHttp(http), auth: buildApiAuth(authSchemes, resources) },
  }
}

/** Each deprecated version's routes whose successor is not the same path under the successor's prefix. */
function withSuccessorRoutes(versions: VersionModel[]): VersionModel[] {
  return versions.map((version, index) => {
    const successor = versions[index + 1]
    if (!version.deprecation || !successor) return version
    const successorRoutes = listSuccessorRoutes(version, successor)
    if (Object.keys(successorRoutes).length === 0) return version
    return { ...version, deprecation: { ...version.deprecation, successorRoutes } }
  })
}

/** Whether the storage keeps tables or columns only older versions use (buildStorage). */
function keepsRetired(storage: Manifest['resources'], newest: Manifest['resources']): boolean {
  return Object.entries(storage).some(([name, resource]) => {
    const declared = newest[name]
    return (
      declared === undefined || Object.keys(declared.fields ?? {}).length < Object.keys(resource.fields ?? {}).length
    )
  })
}

/** The models of a manifest's resources, in manifest order. */
function buildResources(manifest: Manifest, limits: ApiLimits): ResourceModel[] {
  const entries = Object.entries(manifest.resources)
  const idParams = new Map(entries.map(([name, resource]) => [name, foreignKeyOf(name, resource.singular)]))
  const drafts = entries.map(([name, resource]) => buildResource(name, resource, manifest, idParams, limits))
  const referenced = drafts.map((draft) => ({ ...draft, referencedBy: findReferences(draft.name, drafts) }))
  return referenced.map((resource) => ({
    ...resource,
    definition: buildTableDefinition(resource, referenced, limits.includeItemsMax),
    queryRules: buildRuntimeRules(resource),
  }))
}

/** The declared limits over the defaults; the default include_items_max never exceeds per_page_max. */
function buildLimits(declared: NonNullable<Manifest['limits']>): ApiLimits {
  const limits = { ...DEFAULT_LIMITS, ...declared }
  return {
    perPageDefault: limits.per_page_default,
    perPageMax: limits.per_page_max,
    includeMax: limits.include_max,
    includeDepth: limits.include_depth,
    includeItemsMax: declared.include_items_max ?? Math.min(limits.include_items_max, limits.per_page_max),
    bodyMaxBytes: limits.body_max_bytes,
  }
}

/** A resource without `referencedBy`, which needs every resource's fields. */
function buildResource(
  name: string,
  resource: ManifestResource,
  manifest: Manifest,
  idParams: ReadonlyMap<string, string>,
  limits: ApiLimits,
): Omit<ResourceModel, 'referencedBy' | 'definition' | 'queryRules'> {
  const names = deriveResourceNames(name, resource.singular)
  const parent: ParentModel | null = resource.parent
    ? {
        resource: resource.parent,
        foreignKey: idParams.get(resource.parent)!,
        onDelete: resource.on_delete ?? 'restrict',
      }
    : null
  const parentRenamedFrom = resource.parent ? manifest.resources[resource.parent]?.renamed_from : undefined
  const declared = Object.entries(resource.fields ?? {}).map(([fieldName, field]) => buildField(fieldName, field))
  if (resource.owner) declared.push(ownerField(resource.owner.field))
  const relations = buildRelations(name, resource, manifest.resources, limits.includeItemsMax)
  const fields = orderResourceFields<FieldModel>({
    declared,
    parentKey: parent ? foreignKeyField(parent, parentRenamedFrom) : null,
    relationKeys: Object.entries(resource.relations ?? {})
      .filter(([, relation]) => relation.many !== true)
      .map(([relationName, relation]) => relationKeyField(relationName, relation)),
    serverManaged: systemField,
    deletedAt: resource.soft_delete === true ? deletedAtField() : null,
  })
  const rules = buildQueryRules(
    resource,
    fields,
    manifest.cache,
    manifest.limits?.count,
    manifest.limits?.aggregate_groups_max,
  )
  return {
    name,
    singular: names.singular,
    table: names.table,
    renamedFrom: resource.renamed_from ?? null,
    typeName: names.typeName,
    identifier: names.identifier,
    idParam: names.idParam,
    fields,
    parent,
    relations,
    unique: resource.unique ?? [],
    ...rules,
    requireIfMatch: resource.concurrency?.require_if_match ?? manifest.concurrency?.require_if_match ?? false,
    rate: buildRatePolicy(name, resource.rate),
    listQuery: buildListQueryParameters({ name, ...rules }, limits),
    itemQuery: buildItemQueryParameters({ name, ...rules }, limits),
    aggregateQuery: buildAggregateQueryParameters({ name, ...rules }, limits),
    routes: buildRoutes(name, parent, idParams.get(name)!, manifest.resources, rules.aggregate !== null),
    access: buildResourceAccess(resource, manifest),
    owner: resource.owner ? { ...resource.owner, scheme: ownerScheme(resource.owner, manifest) } : null,
    softDelete: resource.soft_delete === true,
    computed: Object.entries(resource.computed ?? {}).map(([fieldName, field]) => ({
      name: fieldName,
      type: field.type,
      nullable: field.nullable ?? false,
    })),
  }
}

/** Every foreign key among `resources` that points at resource `name`, in field order. */
function findReferences(name: string, resources: readonly Pick<ResourceModel, 'name' | 'fields'>[]): ReferenceModel[] {
  return resources.flatMap((other) =>
    other.fields.flatMap((field) =>
      field.references?.resource === name
        ? [{ resource: other.name, foreignKey: field.name, onDelete: field.references.onDelete }]
        : [],
    ),
  )
}

/** The routes of listResourceRoutes, nested under the parent when it exists. */
function buildRoutes(
  name: string,
  parent: ParentModel | null,
  idParam: string,
  all: Manifest['resources'],
  aggregates: boolean,
): RouteModel[] {
  const nestedUnder =
    parent && all[parent.resource] ? { parentResource: parent.resource, parentKey: parent.foreignKey, idParam } : null
  return listResourceRoutes(name, nestedUnder, aggregates)
}

function systemField(name: string, type: FieldModel['type']): FieldModel {
  return { ...buildField(name, { type, required: true }), serverManaged: true }
}

/** The scheme an owner's claim is read from: the one it names, else the only one (validation: OWNER_SCHEME). */
function ownerScheme(owner: NonNullable<ManifestResource['owner']>, manifest: Manifest): string {
  return owner.scheme ?? Object.keys(manifest.auth?.schemes ?? {})[0]!
}

/** `deleted_at` of a soft-deleting resource: server-managed, null while the record is live. */
function deletedAtField(): FieldModel {
  return { ...buildField(SOFT_DELETE_FIELD, { type: 'datetime', nullable: true }), serverManaged: true }
}

/** The owner column: server-managed, NULL on rows created without the claim (which nobody owns). */
function ownerField(name: string): FieldModel {
  return { ...buildField(name, { type: 'string' }), serverManaged: true }
}

/** The parent key; a renamed parent renames it too (`writer_id` → `author_id`). */
function foreignKeyField(parent: ParentModel, parentRenamedFrom: string | undefined): FieldModel {
  const previousKey = parentRenamedFrom === undefined ? parent.foreignKey : foreignKeyOf(parentRenamedFrom)
  return {
    ...buildField(parent.foreignKey, { type: 'integer', required: true, minimum: 1 }),
    references: { resource: parent.resource, onDelete: parent.onDelete, relation: null },
    renamedFrom: previousKey === parent.foreignKey ? null : previousKey,
  }
}

/** A belongs-to's `<relation>_id`: required and not null with `required: true`, else optional and nullable. */
function relationKeyField(name: string, relation: ManifestRelation): FieldModel {
  const required = relation.required ?? false
  return {
    ...buildField(relationKeyOf(name), { type: 'integer', required, nullable: !required, minimum: 1 }),
    references: { resource: relation.resource, onDelete: relation.on_delete ?? 'restrict', relation: name },
    renamedFrom: relation.renamed_from === undefined ? null : relationKeyOf(relation.renamed_from),
  }
}
