import { buildAggregatePageSchema } from './openapi-aggregates.js'
import { COUNT_STRATEGIES } from '../../runtime/contract/count-strategy.js'
import { buildAuthResponses, buildSecuritySchemes } from './openapi-security.js'
import { type ApiModel, type ResourceModel, findResource } from '../model/api-model.js'
import { listIncludedHasMany } from '../model/list-included-has-many.js'
import {
  documentComponentName,
  nameResourceComponents as nameComponents,
  SHARED_SCHEMAS,
  type ResourceComponentNames,
} from '../names/generated-names.js'
import type { JsonSchema, ResourceSchemas } from './json-schemas.js'
import { buildConditionalComponents } from './openapi-conditional-requests.js'
import type {
  OpenApiComponents,
  OpenApiHeader,
  OpenApiReference,
  OpenApiRequestBody,
  OpenApiResponse,
} from './openapi-objects.js'

export type { ResourceComponentNames } from '../names/generated-names.js'

/** Error responses shared by every operation, by component name. */
export type ErrorResponseName = 'BadRequest' | 'NotFound' | 'Conflict' | 'PayloadTooLarge' | 'UnsupportedMediaType'

/** The component names of a resource's schemas (names/generated-names.ts). */
export function nameResourceComponents(resource: ResourceModel): ResourceComponentNames {
  return nameComponents(resource.typeName)
}

export function refSchema(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` }
}

export function refRequestBody(name: string): OpenApiReference {
  return { $ref: `#/components/requestBodies/${name}` }
}

export function refResponse(name: ErrorResponseName): OpenApiReference {
  return { $ref: `#/components/responses/${name}` }
}

export function refHeader(name: 'Location' | 'Vary'): OpenApiReference {
  return { $ref: `#/components/headers/${name}` }
}

/**
 * Every component the paths refer to: each resource's record, bodies and page
 * envelope (reusing the request-validator schemas verbatim), then the shared
 * pagination and problem schemas, error responses and headers.
 *
 * Create and replace bodies are request bodies (`components.requestBodies`),
 * not schemas: their optional fields carry the `default` the server writes
 * when they are omitted, and openapi-typescript, run without flags, makes
 * every property with a `default` required unless its schema sits under a
 * request body; there, `{ title }` compiles as a create body, as the server
 * accepts it. Update bodies have no defaults and serve two media types, so
 * they stay one schema both refer to. Only
 * referenced components are emitted (Spectral's `oas3-unused-component`):
 * `Conflict` exists only when some resource has a unique field or restricting
 * children.
 * https://spec.openapis.org/oas/v3.1.0#components-object
 */
export function buildComponents(
  model: ApiModel,
  schemasOf: (resource: ResourceModel) => ResourceSchemas,
  usesConflict: boolean,
): OpenApiComponents {
  const schemas: Record<string, JsonSchema> = {}
  const requestBodies: Record<string, OpenApiRequestBody> = {}
  const addRequestBody = (name: string, schema: JsonSchema, owner: ResourceModel) =>
    addComponent(requestBodies, name, { required: true, content: { 'application/json': { schema } } }, owner)
  for (const resource of model.resources) {
    const names = nameResourceComponents(resource)
    const documents = listDocumentComponents(resource)
    for (const { name, schema } of documents) addComponent(schemas, name, schema, resource)
    const resourceSchemas = referDocuments(schemasOf(resource), documents)
    addComponent(schemas, names.record, buildRecordSchema(resourceSchemas.record, resource, model), resource)
    addRequestBody(names.create, resourceSchemas.createBody, resource)
    addRequestBody(names.replace, resourceSchemas.replaceBody, resource)
    addComponent(schemas, names.update, resourceSchemas.updateBody, resource)
    if (resourceSchemas.nestedCreateBody && resourceSchemas.nestedReplaceBody && resourceSchemas.nestedUpdateBody) {
      addRequestBody(names.nestedCreate, resourceSchemas.nestedCreateBody, resource)
      addRequestBody(names.nestedReplace, resourceSchemas.nestedReplaceBody, resource)
      addComponent(schemas, names.nestedUpdate, resourceSchemas.nestedUpdateBody, resource)
    }
    addComponent(schemas, names.page, buildPageSchema(resource, names.record), resource)
    if (resource.aggregate !== null) {
      addComponent(
        schemas,
        names.aggregatePage,
        buildAggregatePageSchema(resource, resource.aggregate, refSchema(SHARED_SCHEMAS.pageLinks)),
        resource,
      )
    }
  }
  const cutsArrays = model.resources.some((resource) => listIncludedHasMany(resource, model).length > 0)
  addComponent(schemas, SHARED_SCHEMAS.pageMeta, buildPageMeta(cutsArrays), null)
  addComponent(schemas, SHARED_SCHEMAS.pageLinks, PAGE_LINKS, null)
  addComponent(schemas, SHARED_SCHEMAS.problem, PROBLEM, null)
  if (cutsArrays) addComponent(schemas, SHARED_SCHEMAS.includeTruncation, INCLUDE_TRUNCATION, null)
  const conditional = buildConditionalComponents(model.resources)
  return {
    schemas,
    requestBodies,
    responses: { ...buildErrorResponses(model, usesConflict), ...conditional.responses },
    headers: { Location: LOCATION, Vary: buildVary(model.http.cors !== null), ...conditional.headers },
    ...(model.authSchemes.length > 0 ? { securitySchemes: buildSecuritySchemes(model.authSchemes) } : {}),
  }
}

/** A json field's declared schema, shown once as a component of its own and referred to by its bodies and records. */
interface DocumentComponent {
  readonly field: string
  readonly name: string
  readonly schema: JsonSchema
}

function listDocumentComponents(resource: ResourceModel): DocumentComponent[] {
  return resource.fields.flatMap((field) =>
    field.type === 'json' && field.jsonSchema !== undefined
      ? [
          {
            field: field.name,
            name: documentComponentName(resource.typeName, field.name),
            schema: (typeof field.jsonSchema === 'boolean'
              ? field.jsonSchema
                ? {}
                : { not: {} }
              : field.jsonSchema) as JsonSchema,
          },
        ]
      : [],
  )
}

/** The resource's schemas with each json field's declared schema replaced by a reference to its component. */
function referDocuments(schemas: ResourceSchemas, documents: readonly DocumentComponent[]): ResourceSchemas {
  if (documents.length === 0) return schemas
  const refer = (schema: JsonSchema | null): JsonSchema | null => {
    if (schema === null) return null
    const properties = { ...schema.properties }
    for (const { field, name } of documents) {
      const property = properties[field]
      if (property === undefined) continue
      const nullable = property.anyOf !== undefined
      properties[field] = {
        ...(property.description !== undefined ? { description: property.description } : {}),
        ...(nullable ? { anyOf: [{ type: 'null' }, refSchema(name)] } : refSchema(name)),
      }
    }
    return { ...schema, properties }
  }
  return {
    record: refer(schemas.record)!,
    createBody: refer(schemas.createBody)!,
    replaceBody: refer(schemas.replaceBody)!,
    updateBody: refer(schemas.updateBody)!,
    nestedCreateBody: refer(schemas.nestedCreateBody),
    nestedReplaceBody: refer(schemas.nestedReplaceBody),
    nestedUpdateBody: refer(schemas.nestedUpdateBody),
  }
}

/**
 * Component names share one namespace with resource type names, so a resource
 * such as `problems` or `book-pages` (next to `books`) would silently replace
 * another schema. Manifest validation rejects those (NAME_COLLISION, from the
 * same names/generated-names.ts), so reaching the throw is a generator bug.
 */
function addComponent<Component>(
  components: Record<string, Component>,
  name: string,
  component: Component,
  owner: ResourceModel | null,
): void {
  if (Object.hasOwn(components, name)) {
    const by = owner ? `resource "${owner.name}"` : 'restmint'
    throw new Error(`internal error: OpenAPI component name "${name}" (from ${by}) is already taken by another one`)
  }
  components[name] = component
}

/**
 * A record as responses show it: the fields of the request-validator schema,
 * plus each relation as an optional member, present when an `include` path
 * names it (a has-many as an array of at most `include_items_max` records; a
 * belongs-to as the record, or null when its key is null). Records refer to
 * each other, so this lives only here, not in the self-contained validator schemas.
 */
function buildRecordSchema(record: JsonSchema, resource: ResourceModel, model: ApiModel): JsonSchema {
  if (resource.relations.length === 0) return record
  const members = resource.relations.map((relation): [string, JsonSchema] => {
    const target = refSchema(nameResourceComponents(findResource(model, relation.resource)).record)
    const embedded = 'Embedded only when an `include` path names it.'
    if (relation.kind === 'has-many') {
      return [
        relation.name,
        {
          description:
            `Its ${relation.resource.replaceAll('-', ' ')}: the first ${relation.maxItems} by id. ${embedded} ` +
            'When there are more, `meta.truncated` points at this array and links to the rest.',
          type: 'array',
          items: target,
          ...(relation.maxItems !== null ? { maxItems: relation.maxItems } : {}),
        },
      ]
    }
    const key = resource.fields.find((field) => field.name === relation.foreignKey)
    const description = `The record \`${relation.foreignKey}\` names. ${embedded}`
    return [
      relation.name,
      key?.storedNullable === false
        ? { description, ...target }
        : {
            description: `${description} Null when \`${relation.foreignKey}\` is null.`,
            anyOf: [target, { type: 'null' }],
          },
    ]
  })
  return { ...record, properties: { ...record.properties, ...Object.fromEntries(members) } }
}

/** The collection envelope: data, then PageMeta and PageLinks, shared by every collection. */
function buildPageSchema(resource: ResourceModel, recordName: string): JsonSchema {
  return {
    description: `One page of ${resource.name}.`,
    type: 'object',
    properties: {
      data: { type: 'array', items: refSchema(recordName) },
      meta: refSchema(SHARED_SCHEMAS.pageMeta),
      links: refSchema(SHARED_SCHEMAS.pageLinks),
    },
    required: ['data', 'meta', 'links'],
    additionalProperties: false,
  }
}

/** `meta.truncated` of GET responses: the embedded arrays cut short, absent when none was. */
export function truncatedSchema(): JsonSchema {
  return {
    description:
      'Each embedded array (`include`) this response cut at `include_items_max` records, and where the rest is. ' +
      'Absent when none was cut.',
    type: 'array',
    items: refSchema(SHARED_SCHEMAS.includeTruncation),
  }
}

/** PageMeta; with `truncated` when some include can embed an array. */
function buildPageMeta(cutsArrays: boolean): JsonSchema {
  return {
    description:
      'Where this page lies. Offset requests (`page`) get `page`; what else depends on `count`: `exact` gives ' +
      '`total` and `total_pages`, `estimated` gives `total` alone, `none` neither. Cursor requests (`cursor`) ' +
      'count only when they pass `count=`, since counting would cost what the cursor saves, and never get ' +
      '`total_pages`.',
    type: 'object',
    properties: {
      page: {
        description: 'This page number, from 1. Omitted on cursor requests.',
        type: 'integer',
        minimum: 1,
      },
      per_page: { description: 'Records per page.', type: 'integer', minimum: 1 },
      count: {
        description:
          "What kind of `total` this response carries: `exact` (counted), `estimated` (the database planner's " +
          'estimate: may be off either way, never below the records already seen) or `none` (no `total`). ' +
          '`estimated` was asked but `exact` comes back where the count cost nothing more (the last page) or ' +
          'the database keeps no estimates (SQLite).',
        type: 'string',
        enum: [...COUNT_STRATEGIES],
      },
      total: {
        description: 'Records matching the filters, as `count` says. Omitted when `count` is `none`.',
        type: 'integer',
        minimum: 0,
      },
      total_pages: {
        description:
          'Pages of matching records; 0 when there are none. Only when `count` is `exact` on offset requests.',
        type: 'integer',
        minimum: 0,
      },
      next_cursor: {
        description:
          'Pass it as `cursor` (with the same sort and filters) for the next page; null on the last page. Opaque.',
        type: ['string', 'null'],
      },
      ...(cutsArrays ? { truncated: truncatedSchema() } : {}),
    },
    required: ['per_page', 'count', 'next_cursor'],
    additionalProperties: false,
  }
}

/**
 * One embedded array cut short. An envelope-level list rather than members
 * beside the array, which could collide with field or relation names.
 */
const INCLUDE_TRUNCATION: JsonSchema = {
  description:
    "An embedded array cut at `limits.include_items_max` records, or at its relation's `max_items` (the maxItems " +
    'of the array): the first ones by id.',
  type: 'object',
  properties: {
    pointer: {
      description: 'JSON Pointer (RFC 6901) to the cut array in this response body: `/data/3/comments`, `/data/items`.',
      type: 'string',
      format: 'json-pointer',
    },
    relation: { description: 'The include path that embedded it: `comments`, `posts.comments`.', type: 'string' },
    returned: { description: 'How many records the array holds.', type: 'integer', minimum: 1 },
    next: {
      description:
        "The rest: the related collection's page after the embedded records (`page=2&per_page=<returned>`, " +
        'ordered by id like the array), whose `links` lead on. The nested collection when the relation is its ' +
        'parent, else the top-level collection filtered on the key; null when no route lists them.',
      type: ['string', 'null'],
      format: 'uri-reference',
    },
  },
  required: ['pointer', 'relation', 'returned', 'next'],
  additionalProperties: false,
}

function linkSchema(description: string, nullable: boolean): JsonSchema {
  return { description, type: nullable ? ['string', 'null'] : 'string', format: 'uri-reference' }
}

const PAGE_LINKS: JsonSchema = {
  description: 'Links to pages of the same collection, with the same query parameters.',
  type: 'object',
  properties: {
    self: linkSchema('This page.', false),
    first: linkSchema('The first page.', false),
    prev: linkSchema('The previous page; null on the first page and on cursor requests.', true),
    next: linkSchema(
      'The next page (by `page`, or by `cursor` on cursor requests); null on the last page (known without a count: each page reads one record past its end).',
      true,
    ),
    last: linkSchema(
      'The last page; null on cursor requests and without an exact count (`meta.count` other than `exact`).',
      true,
    ),
  },
  required: ['self', 'first', 'prev', 'next', 'last'],
  additionalProperties: false,
}

// https://www.rfc-editor.org/rfc/rfc9457#section-3
const PROBLEM: JsonSchema = {
  description: 'An RFC 9457 problem detail. Extension members may be added; clients ignore unknown ones.',
  type: 'object',
  properties: {
    type: {
      description: 'URI reference identifying the problem type.',
      type: 'string',
      format: 'uri-reference',
    },
    title: { description: 'Short, human-readable summary of the problem type.', type: 'string' },
    status: { description: 'The HTTP status code.', type: 'integer', minimum: 400, maximum: 599 },
    detail: { description: 'Explanation specific to this occurrence.', type: 'string' },
    instance: { description: 'URI reference of this occurrence.', type: 'string', format: 'uri-reference' },
    code: { description: 'Stable machine-readable error code.', type: 'string' },
    errors: {
      description: 'Each invalid parameter or body member, on validation errors.',
      type: 'array',
      items: {
        type: 'object',
        properties: {
          in: { description: 'Where the bad input is.', type: 'string', enum: ['body', 'query', 'path'] },
          name: { description: 'The parameter name (query and path).', type: 'string' },
          pointer: { description: 'JSON Pointer into the body.', type: 'string', format: 'json-pointer' },
          detail: { description: 'What is wrong with it.', type: 'string' },
        },
        required: ['in', 'detail'],
        additionalProperties: false,
      },
    },
  },
  required: ['type', 'title', 'status', 'detail', 'code'],
}

// https://spec.openapis.org/oas/v3.1.0#responses-object
function buildErrorResponses(model: ApiModel, usesConflict: boolean): Record<string, OpenApiResponse> {
  const problem = (description: string): OpenApiResponse => ({
    description,
    content: { 'application/problem+json': { schema: refSchema(SHARED_SCHEMAS.problem) } },
  })
  return {
    BadRequest: problem(
      'Invalid input: a path or query parameter, or the body (wrong type, unknown or read-only member, ' +
        'missing required member). `errors` lists each problem.',
    ),
    NotFound: problem('No record has this identifier (within the parent, on nested paths).'),
    ...(usesConflict
      ? {
          Conflict: problem('A unique field already holds this value, or other records still reference this one.'),
        }
      : {}),
    ...buildAuthResponses(model, problem),
    PayloadTooLarge: problem(`The body is larger than ${model.limits.bodyMaxBytes} bytes.`),
    UnsupportedMediaType: problem(
      'The body is not JSON: send `Content-Type: application/json` (PATCH also takes `application/merge-patch+json`).',
    ),
  }
}

/** With CORS, answers also differ by `Origin` (register-cors.ts adds it first). */
function buildVary(cors: boolean): OpenApiHeader {
  return {
    description: `Responses differ by ${cors ? '`Origin` and ' : ''}\`Accept\`; a URL with \`include\` is a cache key of its own anyway.`,
    required: true,
    schema: { type: 'string', enum: [cors ? 'Origin, Accept' : 'Accept'] },
  }
}

const LOCATION: OpenApiHeader = {
  description: 'Path of the new record: the nested path when it was created through one.',
  required: true,
  schema: { type: 'string', format: 'uri-reference' },
}
