import { COUNT_STRATEGIES } from '../../runtime/contract/count-strategy.js'
import { DELETED_QUERY_NAME, DELETED_VISIBILITIES } from '../../runtime/contract/query-rules.js'
import { operandKindOf, type FilterOperator } from '../../runtime/contract/filter-operator.js'
import {
  findResource,
  type ApiModel,
  type FieldModel,
  type QueryParameterModel,
  type ResourceModel,
} from '../model/api-model.js'
import { buildOperandSchema, type JsonSchema } from './json-schemas.js'
import type { OpenApiParameter } from './openapi-objects.js'

/**
 * The query parameters of a collection GET (ResourceModel.listQuery) as
 * OpenAPI parameters: what each holds, where the runtime parses the string.
 * `sort`, `include` and `in` operands are lists of their allowed values, and
 * filter operands have their field's type (with its enum for eq, ne and in,
 * which the runtime enforces).
 * https://spec.openapis.org/oas/v3.1.0#style-values
 */
export function buildListParameters(resource: ResourceModel, model: Pick<ApiModel, 'resources'>): OpenApiParameter[] {
  return [
    ...resource.listQuery.map((parameter) => buildParameter(resource, parameter, model)),
    ...deletedParameter(resource),
  ]
}

/** The query parameters of an aggregates GET (ResourceModel.aggregateQuery). */
export function buildAggregateParameters(
  resource: ResourceModel,
  model: Pick<ApiModel, 'resources'>,
): OpenApiParameter[] {
  return resource.aggregateQuery.map((parameter) => buildParameter(resource, parameter, model))
}

/** The query parameters of an item GET: `include`, when the resource has includes; `deleted` with soft delete. */
export function buildItemParameters(resource: ResourceModel, model: Pick<ApiModel, 'resources'>): OpenApiParameter[] {
  return [
    ...resource.itemQuery.map((parameter) => buildParameter(resource, parameter, model)),
    ...deletedParameter(resource),
  ]
}

/** `?deleted=include|only` of a soft-deleting resource (read-deleted-visibility.ts). */
function deletedParameter(resource: ResourceModel): OpenApiParameter[] {
  if (!resource.softDelete) return []
  return [
    parameter(
      DELETED_QUERY_NAME,
      '`include`: soft-deleted records too; `only`: only them (`deleted_at` set). Without it, only live records. ' +
        'Allowed to the callers of the `deleted` access rule (default: those who may delete); others get 403.',
      { type: 'string', enum: [...DELETED_VISIBILITIES] },
    ),
  ]
}

function buildParameter(
  resource: ResourceModel,
  query: QueryParameterModel,
  model: Pick<ApiModel, 'resources'>,
): OpenApiParameter {
  const { name, description } = query
  switch (query.kind) {
    case 'page':
      return parameter(name, description, {
        type: 'integer',
        minimum: 1,
        maximum: query.maximum,
        default: query.default,
      })
    case 'cursor':
      return parameter(name, description, { type: 'string' })
    case 'count':
      return parameter(name, description, { type: 'string', enum: [...COUNT_STRATEGIES] })
    case 'sort': {
      const keys = query.fields.flatMap((field) => [field, `-${field}`])
      return listParameter(name, description, { type: 'string', enum: keys }, { uniqueItems: true })
    }
    case 'include':
      return listParameter(
        name,
        description,
        { type: 'string', enum: query.paths },
        { uniqueItems: true, maxItems: query.maxItems },
      )
    case 'group_by':
      return listParameter(name, description, { type: 'string', enum: [...query.fields] }, { uniqueItems: true })
    case 'aggregate':
      return listParameter(name, description, { type: 'string', enum: [...query.functions] }, { uniqueItems: true })
    case 'filter': {
      const operand = operandSchema(fieldOf(resource, query.field, model), query.operator)
      return query.operator === 'in'
        ? listParameter(name, description, operand, { uniqueItems: true })
        : parameter(name, description, operand)
    }
  }
}

/** What one operand holds: the field's type (with its enum for eq, ne and in), text for text matches, a boolean for null. */
function operandSchema(field: FieldModel, operator: FilterOperator): JsonSchema {
  const kind = operandKindOf(operator)
  if (kind === 'presence') return { type: 'boolean' }
  if (kind === 'text') return { type: 'string' }
  const operand = buildOperandSchema(field)
  return field.enum !== null && kind !== 'bound' ? { ...operand, enum: field.enum } : operand
}

/** The field a filter names: one of the resource's, or at the end of a path across relations (`tags.name`). */
function fieldOf(resource: ResourceModel, name: string, model: Pick<ApiModel, 'resources'>): FieldModel {
  const segments = name.split('.')
  let current = resource
  for (const segment of segments.slice(0, -1)) {
    const relation = current.relations.find((candidate) => candidate.name === segment)
    if (!relation) throw new Error(`internal error: "${current.name}" has no relation "${segment}"`)
    current = findResource(model, relation.resource)
  }
  const field = current.fields.find((candidate) => candidate.name === segments.at(-1))
  if (!field) throw new Error(`internal error: "${resource.name}" filters on unknown field "${name}"`)
  return field
}

function parameter(name: string, description: string, schema: JsonSchema): OpenApiParameter {
  return { name, in: 'query', description, schema }
}

/**
 * A list, documented in the repeated form (`style: form, explode: true`:
 * `?include=author&include=category`), which typed clients such as
 * openapi-fetch and orval send for arrays by default. The server takes the
 * comma form (`?include=author,category`) as the same list; a parameter has
 * only one style, so the description says so.
 */
function listParameter(
  name: string,
  description: string,
  items: JsonSchema,
  bounds: Pick<JsonSchema, 'uniqueItems' | 'maxItems'>,
): OpenApiParameter {
  const forms =
    ` Repeat the parameter for several values (\`${name}=a&${name}=b\`) or separate them with commas ` +
    `(\`${name}=a,b\`): both mean the same.`
  return {
    ...parameter(name, `${description}${forms}`, { type: 'array', items, ...bounds }),
    style: 'form',
    explode: true,
  }
}
