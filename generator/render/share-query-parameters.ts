import type { ApiModel, ResourceModel } from '../model/api-model.js'
import { operationId } from '../names/generated-names.js'
import type {
  OpenApiDocument,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiReference,
} from './openapi-objects.js'
import { listLinkListTargets } from './openapi-link-path-items.js'
import { customOperationId } from './openapi-operation-items.js'

/** The document as written: query parameters referenced from `components.parameters`. */
export interface SharedOpenApiDocument extends Omit<OpenApiDocument, 'paths' | 'components'> {
  readonly paths: { readonly [path: string]: SharedPathItem }
  readonly components: OpenApiDocument['components'] & { readonly parameters: Record<string, OpenApiParameter> }
}

type SharedPathItem = Omit<OpenApiPathItem, OpenApiMethod> & {
  readonly [method in OpenApiMethod]?: Omit<OpenApiOperation, 'parameters'> & {
    readonly parameters?: readonly (OpenApiParameter | OpenApiReference)[]
  }
}

const METHODS: readonly OpenApiMethod[] = ['get', 'post', 'put', 'patch', 'delete']

/**
 * Moves every query parameter into `components.parameters` and refers to it
 * with `$ref`: a resource's top-level and nested list operations take the
 * same ones, and every collection the same `page`, `per_page` and `cursor`.
 * A parameter defined alike by every resource that has it is named after
 * itself (`page`, `filter.price.gte`); otherwise after its resource's type
 * too (`Post.filter.price.gte`; a many-to-many list, `/posts/{post_id}/tags`,
 * takes the linked resource's: `Tag.sort`). Path parameters stay on their path items.
 * https://spec.openapis.org/oas/v3.1.0#components-object
 */
export function shareQueryParameters(document: OpenApiDocument, model: ApiModel): SharedOpenApiDocument {
  const typeNames = new Map(model.resources.map((resource) => [resource.name, resource.typeName]))
  const linkListTargets = listLinkListTargets(model)
  // A custom operation's query parameters are its own: they stay on it; so do an aggregates operation's,
  // whose `per_page` and `cursor` are not the list's.
  const custom = new Set([
    ...model.versions.flatMap((version) => version.operations.map(customOperationId)),
    ...model.versions.flatMap((version) =>
      version.resources.flatMap((resource) => listAggregateOperationIds(resource, version.resources)),
    ),
  ])
  const variants = new Map<string, Set<string>>()
  for (const { parameter } of listQueryParameters(document, custom)) {
    const key = componentKey(parameter.name)
    variants.set(key, (variants.get(key) ?? new Set()).add(JSON.stringify(parameter)))
  }
  const parameters: Record<string, OpenApiParameter> = {}
  const share = (parameter: OpenApiParameter, tag: string): OpenApiParameter | OpenApiReference => {
    if (parameter.in !== 'query') return parameter
    const key = componentKey(parameter.name)
    const name = variants.get(key)!.size === 1 ? key : `${typeNames.get(tag)!}.${key}`
    parameters[name] = parameter
    return { $ref: `#/components/parameters/${name}` }
  }
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, value]) => {
          const operation = METHODS.includes(key as OpenApiMethod) ? (value as OpenApiOperation) : null
          if (!operation?.parameters || custom.has(operation.operationId)) return [key, value]
          return [
            key,
            {
              ...operation,
              parameters: operation.parameters.map((each) =>
                share(each, linkListTargets.get(operation.operationId) ?? operation.tags[0]!),
              ),
            },
          ]
        }),
      ),
    ]),
  )
  return { ...document, paths, components: { ...document.components, parameters } }
}

function listQueryParameters(
  document: OpenApiDocument,
  custom: ReadonlySet<string>,
): { parameter: OpenApiParameter }[] {
  return Object.values(document.paths).flatMap((item) =>
    METHODS.flatMap((method) =>
      (custom.has(item[method]?.operationId ?? '') ? [] : (item[method]?.parameters ?? []))
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => ({ parameter })),
    ),
  )
}

/** `filter[price][gte]` → `filter.price.gte`: component names allow only `[A-Za-z0-9._-]`. */
function componentKey(name: string): string {
  return name.replace(/\]\[|\[/g, '.').replace(/\]/g, '')
}

/** The operationIds of a resource's aggregates routes (none without `aggregate:`). */
function listAggregateOperationIds(resource: ResourceModel, resources: readonly ResourceModel[]): string[] {
  return resource.routes
    .filter((route) => route.kind === 'aggregates')
    .map((route) =>
      operationId(
        'aggregate',
        resource,
        route.nestedUnder
          ? (resources.find((parent) => parent.name === route.nestedUnder!.parentResource)?.typeName ?? null)
          : null,
      ),
    )
}
