import type { RouteMethod } from '../../runtime/contract/resource-routes.js'
import { RESTORATIONS } from '../../runtime/contract/table-definition.js'
import {
  type ApiModel,
  type ResourceModel,
  type RouteModel,
  type VersionModel,
  findResource,
} from '../model/api-model.js'
import { listIncludedHasMany } from '../model/list-included-has-many.js'
import { operationId, type OperationVerb } from '../names/generated-names.js'
import { buildParamsSchema, type JsonSchema } from './json-schemas.js'
import { addConditionalRequests } from './openapi-conditional-requests.js'
import { buildAggregateParameters, buildItemParameters, buildListParameters } from './openapi-query-parameters.js'
import { ACCESS_OPERATION_OF, readDependsOnCaller, secureOperation, secureWithRules } from './openapi-security.js'
import {
  nameResourceComponents,
  refHeader,
  refRequestBody,
  refResponse,
  refSchema,
  truncatedSchema,
  type ResourceComponentNames,
} from './openapi-components.js'
import type {
  OpenApiContent,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
} from './openapi-objects.js'

/** What an operation does (`list`, `create`, `get`…), by route kind and method. */
type Verb = OperationVerb

const VERBS: Readonly<Record<RouteModel['kind'], Partial<Record<RouteMethod, Verb>>>> = {
  collection: { GET: 'list', POST: 'create' },
  item: { GET: 'get', PUT: 'replace', PATCH: 'update', DELETE: 'delete' },
  aggregates: { GET: 'aggregate' },
}

interface OperationContext {
  readonly resource: ResourceModel
  readonly route: RouteModel
  readonly names: ResourceComponentNames
  readonly model: ApiModel
  /** On nested routes: the parent resource and its path parameter. */
  readonly parent: { readonly resource: ResourceModel; readonly param: string } | null
}

/**
 * The path items of one resource: each of its routes under the version
 * prefix, with path parameters declared once per path item and one operation
 * per method.
 * https://spec.openapis.org/oas/v3.1.0#path-item-object
 */
export function buildPathItems(
  resource: ResourceModel,
  model: ApiModel,
  version: VersionModel,
): [string, OpenApiPathItem][] {
  const names = nameResourceComponents(resource)
  return resource.routes.flatMap((route): [string, OpenApiPathItem][] => {
    const parent = route.nestedUnder
      ? { resource: findResource(model, route.nestedUnder.parentResource), param: route.nestedUnder.parentKey }
      : null
    const context: OperationContext = { resource, route, names, model, parent }
    const parameters = buildPathParameters(context)
    const operations = route.methods.map((method) => [
      method.toLowerCase() as OpenApiMethod,
      buildOperation(method, context),
    ])
    const path = `${version.prefix}${route.path}`
    const item: [string, OpenApiPathItem] = [
      path,
      { ...(parameters.length > 0 ? { parameters } : {}), ...Object.fromEntries(operations) },
    ]
    // As the runtime registers it: on the top-level item route only, so nesting stays at two levels.
    if (!resource.softDelete || route.kind !== 'item' || parent !== null) return [item]
    return [item, [`${path}/${RESTORATIONS}`, { parameters, post: buildRestoration(context) }]]
  })
}

/** `POST /<resources>/{id}/restorations`: brings a soft-deleted record back (register-resource.ts). */
function buildRestoration(context: OperationContext): OpenApiOperation {
  const { resource, names, model } = context
  const operation: OpenApiOperation = {
    operationId: `restore${resource.typeName}`,
    tags: [resource.name],
    summary: `Restore one deleted ${words(resource.singular)}`,
    description:
      `Brings back ${describeRecord(context)} after a DELETE soft-deleted it (\`deleted_at\` becomes null) and returns it. ` +
      '404 when there is no such record, deleted or not (nor after `restmint purge`); 409 `not_deleted` when it is not deleted, ' +
      '409 `unique_violation` naming the field when a live record took one of its unique values meanwhile. ' +
      'Allowed to the callers of the `deleted` access rule (default: those who may delete).',
    responses: {
      200: { description: `The restored ${words(resource.singular)}.`, content: json(dataEnvelope(names.record)) },
      400: refResponse('BadRequest'),
      404: refResponse('NotFound'),
      409: refResponse('Conflict'),
    },
  }
  const rules = resource.access?.deleted
  return rules === undefined ? operation : secureWithRules(operation, rules, resource.owner, model)
}

function buildPathParameters({ resource, route, parent }: OperationContext): OpenApiParameter[] {
  const properties = buildParamsSchema(route).properties ?? {}
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'path',
    description: `Identifier of the ${words(name === parent?.param ? parent.resource.singular : resource.singular)}.`,
    required: true,
    schema,
  }))
}

// https://spec.openapis.org/oas/v3.1.0#operation-object
function buildOperation(method: RouteMethod, context: OperationContext): OpenApiOperation {
  const verb = VERBS[context.route.kind][method]
  if (!verb) throw new Error(`internal error: no OpenAPI operation for ${method} on a ${context.route.kind} route`)
  const { resource, parent } = context
  const nestedSummary = parent ? ` under one ${words(parent.resource.singular)}` : ''
  const operation = {
    operationId: operationId(verb, resource, parent?.resource.typeName ?? null),
    tags: [resource.name],
    summary: `${SUMMARIES[verb](resource)}${nestedSummary}`,
    ...addConditionalRequests(verb, resource, OPERATIONS[verb](context)),
    // What a contract comparison reads: DELETE keeps the record (compare-operations.ts, DELETE_MADE_SOFT).
    ...(verb === 'delete' && resource.softDelete ? { 'x-restmint-soft-delete': true as const } : {}),
  }
  return secureOperation(operation, resource, verb, context.model)
}

const SUMMARIES: Readonly<Record<Verb, (resource: ResourceModel) => string>> = {
  list: (resource) => `List ${words(resource.name)}`,
  create: (resource) => `Create one ${words(resource.singular)}`,
  get: (resource) => `Get one ${words(resource.singular)}`,
  replace: (resource) => `Replace one ${words(resource.singular)}`,
  update: (resource) => `Update one ${words(resource.singular)}`,
  delete: (resource) => `Delete one ${words(resource.singular)}`,
  aggregate: (resource) => `Count and aggregate ${words(resource.name)} by group`,
}

type OperationBody = Pick<OpenApiOperation, 'description' | 'parameters' | 'requestBody' | 'responses'>

const OPERATIONS: Readonly<Record<Verb, (context: OperationContext) => OperationBody>> = {
  list: (context) => {
    const { resource, names, model, parent } = context
    const { perPageDefault, perPageMax } = model.limits
    return {
      description:
        `Returns one page of ${describeScope(context)}, filtered by the exact and \`filter[…]\` parameters ` +
        '(all must match) and ordered by `sort` (default: id ascending). ' +
        `\`page\` and \`per_page\` (default ${perPageDefault}, at most ${perPageMax}) select the page; ` +
        'or walk the collection with `cursor`, which never skips or repeats a record when others change. ' +
        '`links` lead to the others. A page past the end is empty.' +
        describeIncludes(resource, model) +
        parentMissing(context),
      parameters: buildListParameters(resource, model),
      responses: {
        200: readResponse(context, 'list', `One page of ${words(resource.name)}.`, refSchema(names.page)),
        400: refResponse('BadRequest'),
        ...(parent ? { 404: refResponse('NotFound') } : {}),
      },
    }
  },
  aggregate: (context) => {
    const { resource, model, parent } = context
    const aggregate = resource.aggregate!
    return {
      description:
        `Groups ${describeScope(context)} matching the exact and \`filter[…]\` parameters (as the list ` +
        'selects them, and only the records the caller may list) by the `group_by` fields, and returns per group ' +
        'its values, `count` and the `aggregate[…]` functions asked for. Groups are sorted by their values ' +
        `(null first), at most \`per_page\` (up to ${aggregate.groupsMax}) per page; \`meta.next_cursor\` ` +
        'continues. Sums of integers are strings of digits, exact beyond 2^53.' +
        parentMissing(context),
      parameters: buildAggregateParameters(resource, model),
      responses: {
        200: readResponse(
          context,
          'aggregate',
          `One page of groups of ${words(resource.name)}.`,
          refSchema(context.names.aggregatePage),
        ),
        400: refResponse('BadRequest'),
        ...(parent ? { 404: refResponse('NotFound') } : {}),
      },
    }
  },
  create: (context) => {
    const { resource, names, parent } = context
    return {
      description:
        `Creates one ${words(resource.singular)} from the body and returns it; \`Location\` gives its path. ` +
        'Omitted optional fields take their default, or null.' +
        describeParentKey(context) +
        describeRelationKeys(resource),
      requestBody: refRequestBody(parent ? names.nestedCreate : names.create),
      responses: {
        201: {
          description: `The created ${words(resource.singular)}.`,
          headers: { Location: refHeader('Location') },
          content: json(dataEnvelope(names.record)),
        },
        ...writeErrors(context),
      },
    }
  },
  get: (context) => ({
    description: `Returns ${describeRecord(context)}.${describeIncludes(context.resource, context.model)}`,
    ...optionalParameters(buildItemParameters(context.resource, context.model)),
    responses: {
      200: readResponse(
        context,
        'get',
        `The ${words(context.resource.singular)}.`,
        listIncludedHasMany(context.resource, context.model).length > 0
          ? dataEnvelope(context.names.record, {
              meta: {
                description: 'Present when an embedded array was cut.',
                type: 'object',
                properties: { truncated: truncatedSchema() },
                required: ['truncated'],
                additionalProperties: false,
              },
            })
          : dataEnvelope(context.names.record),
      ),
      400: refResponse('BadRequest'),
      404: refResponse('NotFound'),
    },
  }),
  replace: (context) => ({
    description:
      `Replaces ${describeRecord(context)} with the body, which holds the full representation: ` +
      'required fields must be present; omitted optional fields are reset to their default, or null.',
    requestBody: refRequestBody(context.parent ? context.names.nestedReplace : context.names.replace),
    responses: { 200: updatedResponse(context), ...writeErrors(context) },
  }),
  update: (context) => {
    const schema = refSchema(context.parent ? context.names.nestedUpdate : context.names.update)
    return {
      // https://www.rfc-editor.org/rfc/rfc7396
      description:
        `Changes only the fields of ${describeRecord(context)} present in the body ` +
        '(JSON, or a JSON Merge Patch); `null` clears a nullable field.',
      requestBody: {
        required: true,
        content: { ...json(schema), 'application/merge-patch+json': { schema } },
      },
      responses: { 200: updatedResponse(context), ...writeErrors(context) },
    }
  },
  delete: (context) => {
    const { referencedBy } = context.resource
    const restricting = unique(
      referencedBy.filter((reference) => reference.onDelete === 'restrict').map((reference) => reference.resource),
    )
    const cascading = unique(
      referencedBy.filter((reference) => reference.onDelete === 'cascade').map((reference) => reference.resource),
    )
    const clearing = unique(
      referencedBy.filter((reference) => reference.onDelete === 'set_null').map((reference) => reference.resource),
    )
    return {
      description: context.resource.softDelete
        ? `Soft-deletes ${describeRecord(context)}: stamps \`deleted_at\`; from then on it is left out of lists, reads and includes ` +
          '(`?deleted=include|only` shows it to callers the `deleted` access rule admits), ' +
          'its unique values are free again, and deleting it again is 404. ' +
          `\`POST …/${RESTORATIONS}\` brings it back; \`restmint purge\` deletes it for good, when its children's \`on_delete\` applies.` +
          (restricting.length > 0 ? ` 409 while ${restricting.join(', ')} still reference it.` : '')
        : `Deletes ${describeRecord(context)} permanently; deleting it again is 404.` +
          (restricting.length > 0 ? ` 409 while ${restricting.join(', ')} still reference it.` : '') +
          (cascading.length > 0
            ? ` The ${cascading.join(', ')} referencing it are deleted with it, in the same transaction.`
            : '') +
          (clearing.length > 0 ? ` The ${clearing.join(', ')} referencing it stay, their reference set to null.` : ''),
      responses: {
        204: { description: 'Deleted; no body.' },
        400: refResponse('BadRequest'),
        404: refResponse('NotFound'),
        ...(restricting.length > 0 ? { 409: refResponse('Conflict') } : {}),
      },
    }
  },
}

/** 400, 404, 409 when a unique field can clash, 413 and 415: the errors of operations with a body. */
function writeErrors(context: OperationContext): OpenApiOperation['responses'] {
  const itemOrNested = context.route.kind === 'item' || context.parent !== null
  return {
    400: refResponse('BadRequest'),
    ...(itemOrNested ? { 404: refResponse('NotFound') } : {}),
    ...(context.resource.fields.some((field) => field.unique) ? { 409: refResponse('Conflict') } : {}),
    413: refResponse('PayloadTooLarge'),
    415: refResponse('UnsupportedMediaType'),
  }
}

function updatedResponse(context: OperationContext): OpenApiOperation['responses'][string] {
  return {
    description: `The updated ${words(context.resource.singular)}.`,
    content: json(dataEnvelope(context.names.record)),
  }
}

/**
 * A GET answer: the body, with `Cache-Control` from the manifest's `cache`
 * and `Vary`. A URL with `include` is a different URL, so it is cached apart.
 */
function readResponse(
  { resource }: OperationContext,
  verb: 'list' | 'get' | 'aggregate',
  description: string,
  schema: JsonSchema,
): OpenApiResponse {
  const byCaller = readDependsOnCaller(resource.access, verb, resource.includes.length > 0)
  const everyone =
    resource.access === null || resource.access[ACCESS_OPERATION_OF[verb]].every((rule) => rule === 'public')
  const values = [
    ...(everyone ? [resource.cacheControl] : []),
    ...(byCaller ? [`private, ${resource.cacheControl}`] : []),
  ]
  return {
    description,
    headers: {
      'Cache-Control': {
        description:
          (resource.cacheControl === 'no-cache'
            ? 'Caches must revalidate before reusing the response.'
            : 'How long the response may be reused, from the manifest.') +
          (byCaller ? ' `private` when the answer depends on the credentials (the rule, or `include`).' : ''),
        required: true,
        schema: { type: 'string', enum: values },
      },
      Vary: refHeader('Vary'),
    },
    content: json(schema),
  }
}

/** ` \`include\` embeds related records: author, comments. Embedded arrays hold at most 50 records (comments: 10)…` */
function describeIncludes(resource: ResourceModel, model: ApiModel): string {
  if (resource.includes.length === 0) return ''
  const arrays = listIncludedHasMany(resource, model)
  const { includeItemsMax } = model.limits
  const own = arrays
    .filter((relation) => relation.maxItems !== includeItemsMax)
    .map((relation) => `${relation.name}: ${relation.maxItems}`)
  const cut =
    arrays.length > 0
      ? ` Embedded arrays hold at most ${includeItemsMax} records${own.length > 0 ? ` (${own.join(', ')})` : ''}, ` +
        'the first by id; `meta.truncated` lists the arrays cut short, each with a link to the rest.'
      : ''
  return ` \`include\` embeds related records: ${resource.includes.join(', ')}.${cut}`
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)]
}

/** Operations without query parameters leave `parameters` out rather than list none. */
function optionalParameters(parameters: OpenApiParameter[]): Pick<OpenApiOperation, 'parameters'> {
  return parameters.length > 0 ? { parameters } : {}
}

/** `{ data }`, with optional `extra` members. */
function dataEnvelope(recordName: string, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    properties: { data: refSchema(recordName), ...extra },
    required: ['data'],
    additionalProperties: false,
  }
}

function json(schema: JsonSchema): OpenApiContent {
  return { 'application/json': { schema } }
}

/** `authors`, or `the items of order {order_id}` on a nested route. */
function describeScope({ resource, parent }: OperationContext): string {
  return parent
    ? `the ${words(resource.name)} of ${words(parent.resource.singular)} \`{${parent.param}}\``
    : words(resource.name)
}

/** `author {id}`, or `item {item_id} of order {order_id}` (404 when it belongs to another order). */
function describeRecord({ resource, route, parent }: OperationContext): string {
  const record = `${words(resource.singular)} \`{${route.idParam}}\``
  if (!parent) return record
  const parentName = words(parent.resource.singular)
  return `${record} of ${parentName} \`{${parent.param}}\` (404 when it belongs to another ${parentName})`
}

function parentMissing({ parent }: OperationContext): string {
  return parent ? ` 404 when ${words(parent.resource.singular)} \`{${parent.param}}\` does not exist.` : ''
}

/** Where a new record's parent key comes from: the path on nested routes, else the body. */
function describeParentKey(context: OperationContext): string {
  const { resource, parent, model } = context
  if (!resource.parent) return ''
  if (parent) return ` \`${resource.parent.foreignKey}\` comes from the path.${parentMissing(context)}`
  const parentName = words(findResource(model, resource.parent.resource).singular)
  return ` \`${resource.parent.foreignKey}\` must name an existing ${parentName} (400 otherwise).`
}

/** ` \`author_id\`, \`category_id\` must name existing records (400 otherwise).` */
function describeRelationKeys(resource: ResourceModel): string {
  const keys = resource.fields
    .filter((field) => (field.references?.relation ?? null) !== null)
    .map((field) => `\`${field.name}\``)
  if (keys.length === 0) return ''
  return ` ${keys.join(', ')} must name existing records when set (400 otherwise).`
}

/** `order-items` → `order items`, for prose. */
function words(name: string): string {
  return name.replaceAll('-', ' ')
}
