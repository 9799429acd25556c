import { migrationGuideName } from '../names/generated-names.js'
import type { ApiModel, ResourceModel, VersionModel } from '../model/api-model.js'
import { buildResourceSchemas, type ResourceSchemas } from './json-schemas.js'
import { buildComponents } from './openapi-components.js'
import { markDeprecated } from './openapi-deprecation.js'
import type { OpenApiDocument, OpenApiMethod, OpenApiPathItem } from './openapi-objects.js'
import { buildOperationPathItems } from './openapi-operation-items.js'
import { buildPathItems } from './openapi-path-items.js'
import { buildLinkPathItems } from './openapi-link-path-items.js'
import { isIdentityMapping } from '../model/map-version-storage.js'
import { markRateLimited } from './openapi-rate-limits.js'

export type { OpenApiDocument } from './openapi-objects.js'

const METHODS: readonly OpenApiMethod[] = ['get', 'post', 'put', 'patch', 'delete']

/**
 * The OpenAPI 3.1 document of one API version: a plain object, serialized by
 * the caller to openapi.json (and openapi.yaml when asked for). Paths carry the version prefix
 * (`/v1/authors`) and `servers[0].url` is the manifest's `base_url`, or `/`
 * (same origin) without one. Deterministic: key order follows the manifest
 * and fixed tables, never hash or time order.
 * https://spec.openapis.org/oas/v3.1.0#openapi-object
 */
export function buildOpenApiDocument(model: ApiModel, version: VersionModel): OpenApiDocument {
  // Link routes are served where the version's names are the storage's (render-project.ts).
  const translated = version.storage === null || !isIdentityMapping(version.storage, version)
  const schemas = new Map<ResourceModel, ResourceSchemas>(
    model.resources.map((resource) => [resource, buildResourceSchemas(resource, model)]),
  )
  const schemasOf = (resource: ResourceModel): ResourceSchemas => schemas.get(resource)!
  const paths: Record<string, OpenApiPathItem> = Object.fromEntries([
    ...model.resources.flatMap((resource) => [
      ...buildPathItems(resource, model, version),
      ...buildLinkPathItems(resource, model, version, translated),
    ]),
    ...buildOperationPathItems(model, version),
  ])
  const collectionOnly = [...new Set(version.operations.map((operation) => operation.resource))].filter(
    (name) => !model.resources.some((resource) => resource.name === name),
  )
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: model.service.title,
      description: describeDocument(model, version),
      version: version.name,
    },
    servers: [{ url: model.service.baseUrl?.replace(/\/+$/, '') || '/' }],
    tags: [
      ...model.resources.map((resource) => ({
        name: resource.name,
        description: describeTag(resource, version),
      })),
      ...collectionOnly.map((name) => ({
        name,
        description: `The ${name.replaceAll('-', ' ')} operations (a collection with no records of its own).`,
      })),
    ],
    paths,
    components: buildComponents(model, schemasOf, usesResponse(paths, '409')),
  }
  const limited = markRateLimited(document, model)
  return version.deprecation ? markDeprecated(limited, version, version.deprecation) : limited
}

function describeTag(resource: ResourceModel, version: VersionModel): string {
  const nested = resource.routes.filter((route) => route.nestedUnder !== null).map((route) => route.path)
  const also = nested.length > 0 ? ` Also reachable under \`${version.prefix}${nested[0]}\`.` : ''
  return `The ${resource.name.replaceAll('-', ' ')} collection and its records.${also}`
}

function usesResponse(paths: Record<string, OpenApiPathItem>, status: string): boolean {
  return Object.values(paths).some((item) => METHODS.some((method) => item[method]?.responses[status] !== undefined))
}

/**
 * The service's description; after a previous version, also where its
 * migration guide is, so /docs links it from the version's page.
 */
function describeDocument(model: ApiModel, version: VersionModel): string {
  const description = model.service.description ?? `The ${model.service.title} HTTP interface, version ${version.name}.`
  const previous = model.versions[model.versions.indexOf(version) - 1]
  if (previous === undefined) return description
  const guide = `/docs/${migrationGuideName(previous.name, version.name)}`
  return `${description}\n\nComing from ${previous.name}? The [migration guide](${guide}) lists every name that changed.`
}
