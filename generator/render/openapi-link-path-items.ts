import { listLinkRoutes } from '../../runtime/contract/link-routes.js'
import {
  findResource,
  type ApiModel,
  type RelationModel,
  type ResourceModel,
  type VersionModel,
} from '../model/api-model.js'
import { buildLinkBodySchema, type JsonSchema } from './json-schemas.js'
import { nameResourceComponents, refHeader, refResponse, refSchema } from './openapi-components.js'
import type { OpenApiOperation, OpenApiParameter, OpenApiPathItem } from './openapi-objects.js'
import { buildListParameters } from './openapi-query-parameters.js'
import { secureOperation } from './openapi-security.js'

/**
 * The path items of a resource's many-to-many relations (listLinkRoutes):
 * the linked records' list and the link on the collection, the unlink on
 * the item. Access is the join resource's (list, create, delete). Versions
 * that translate names serve none (render-project.ts), so document none.
 * https://spec.openapis.org/oas/v3.1.0#path-item-object
 */
export function buildLinkPathItems(
  resource: ResourceModel,
  model: ApiModel,
  version: VersionModel,
  translated: boolean,
): [string, OpenApiPathItem][] {
  if (translated) return []
  return resource.relations.flatMap((relation) =>
    relation.through === null ? [] : buildRelationItems(resource, relation, relation.through, model, version),
  )
}

function buildRelationItems(
  resource: ResourceModel,
  relation: RelationModel,
  through: NonNullable<RelationModel['through']>,
  model: ApiModel,
  version: VersionModel,
): [string, OpenApiPathItem][] {
  const target = findResource(model, relation.resource)
  const join = findResource(model, through.resource)
  const [collection, item] = listLinkRoutes(resource.name, relation.name, relation.foreignKey, through.targetKey)
  const source = pathParameter(relation.foreignKey, `Identifier of the ${words(resource.singular)}.`)
  const targetParam = pathParameter(through.targetKey, `Identifier of the linked ${words(target.singular)}.`)
  const operationId = (verb: string) => linkOperationId(verb, resource, relation)
  const tags = [resource.name]
  const secure = (operation: OpenApiOperation, verb: 'list' | 'create' | 'delete') =>
    secureOperation(operation, join, verb, model)
  const list: OpenApiOperation = {
    operationId: operationId('list'),
    tags,
    summary: `List the ${words(target.name)} linked to one ${words(resource.singular)}`,
    description:
      `Returns one page of the ${words(target.name)} linked to ${words(resource.singular)} \`{${relation.foreignKey}}\` ` +
      `through ${words(join.name)}, with the parameters, order and pages of \`${version.prefix}/${target.name}\`. ` +
      `404 when the ${words(resource.singular)} does not exist.`,
    parameters: buildListParameters(target, model),
    responses: {
      200: {
        description: `One page of ${words(target.name)}.`,
        content: json(refSchema(nameResourceComponents(target).page)),
      },
      400: refResponse('BadRequest'),
      404: refResponse('NotFound'),
    },
  }
  const link: OpenApiOperation = {
    operationId: operationId('link'),
    tags,
    summary: `Link one ${words(target.singular)} to one ${words(resource.singular)}`,
    description:
      `Links an existing ${words(target.singular)} (\`${through.targetKey}\`) to ${words(resource.singular)} ` +
      `\`{${relation.foreignKey}}\` by creating one ${words(join.singular)}, with its own fields from the body; ` +
      `\`Location\` gives its path under \`${version.prefix}/${join.name}\`. 409 when the two are linked already; ` +
      `400 naming \`${through.targetKey}\` when no ${words(target.singular)} has that id.`,
    requestBody: { required: true, content: json(buildLinkBodySchema(relation, model)) },
    responses: {
      201: {
        description: `The created ${words(join.singular)}.`,
        headers: { Location: refHeader('Location') },
        content: json(dataEnvelope(refSchema(nameResourceComponents(join).record))),
      },
      400: refResponse('BadRequest'),
      404: refResponse('NotFound'),
      409: refResponse('Conflict'),
    },
  }
  const unlink: OpenApiOperation = {
    operationId: operationId('unlink'),
    tags,
    summary: `Unlink one ${words(target.singular)} from one ${words(resource.singular)}`,
    description:
      `Deletes the ${words(join.singular)} linking the two; the ${words(target.singular)} itself stays. ` +
      '404 when they are not linked.',
    responses: { 204: { description: 'Unlinked.' }, 404: refResponse('NotFound') },
  }
  return [
    [
      `${version.prefix}${collection!.path}`,
      { parameters: [source], get: secure(list, 'list'), post: secure(link, 'create') },
    ],
    [`${version.prefix}${item!.path}`, { parameters: [source, targetParam], delete: secure(unlink, 'delete') }],
  ]
}

function pathParameter(name: string, description: string): OpenApiParameter {
  return {
    name,
    in: 'path',
    description,
    required: true,
    schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  }
}

/** `tags` → `Tags`, `related_posts` → `RelatedPosts`: the relation in operationIds. */
/**
 * The list operations of the many-to-many relations (`listPost_Tags`) and
 * the resource they list (`tags`): they take that resource's query
 * parameters, so those are shared under its name, not the tagged one's.
 */
export function listLinkListTargets(model: ApiModel): Map<string, string> {
  return new Map(
    model.resources.flatMap((resource) =>
      resource.relations
        .filter((relation) => relation.through !== null)
        .map((relation): [string, string] => [linkOperationId('list', resource, relation), relation.resource]),
    ),
  )
}

function linkOperationId(verb: string, resource: ResourceModel, relation: RelationModel): string {
  return `${verb}${resource.typeName}_${relationTypeName(relation.name)}`
}

function relationTypeName(relation: string): string {
  return relation.replace(/(^|_)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase())
}

function words(name: string): string {
  return name.replaceAll('-', ' ')
}

function dataEnvelope(record: JsonSchema): JsonSchema {
  return { type: 'object', properties: { data: record }, required: ['data'], additionalProperties: false }
}

function json(schema: JsonSchema) {
  return { 'application/json': { schema } }
}
