import { operandKindOf, type FilterOperator } from '../../runtime/contract/filter-operator.js'
import type { ApiModel, FieldModel, FilterModel, ResourceModel } from '../model/api-model.js'
import { buildOperandSchema, type JsonSchema, type ResourceSchemas } from './json-schemas.js'
import type { OpenApiParameter } from './openapi-objects.js'

/**
 * The query parameters of a collection GET: those of the listQuery validator
 * schema, in its order and with its descriptions, where `filter` becomes one
 * `filter[<field>][<operator>]` parameter per filterable field and operator.
 * The validator takes everything but pagination as strings (the runtime
 * parses them); the document says what they hold: `sort`, `include` and `in`
 * operands are lists of their allowed values, and filter operands have their
 * field's type (with its enum for eq, ne and in, which the runtime enforces).
 * https://spec.openapis.org/oas/v3.1.0#style-values
 */
export function buildListParameters(
  resource: ResourceModel,
  schemas: ResourceSchemas,
  model: ApiModel,
): OpenApiParameter[] {
  const exact = new Map(
    resource.filters
      .filter((filter) => filter.operators.includes('eq'))
      .map((filter) => [filter.field, filter]),
  )
  return Object.entries(schemas.listQuery.properties ?? {}).flatMap(([name, property]) => {
    const description = property.description ?? name
    if (name === 'sort') {
      const keys = resource.sortable.flatMap((field) => [field, `-${field}`])
      return [listParameter(name, description, { type: 'string', enum: keys }, { uniqueItems: true })]
    }
    if (name === 'include') return [includeParameter(resource, description, model)]
    if (name === 'filter')
      return resource.filters.flatMap((filter) => buildFilterParameters(resource, filter))
    const filter = exact.get(name)
    if (filter !== undefined)
      return [parameter(name, description, operandSchema(fieldOf(resource, filter), 'eq'))]
    const { description: _, ...schema } = property
    return [parameter(name, description, schema)]
  })
}

/** The query parameters of an item GET: `include`, when the resource has includes. */
export function buildItemParameters(
  resource: ResourceModel,
  schemas: ResourceSchemas,
  model: ApiModel,
): OpenApiParameter[] {
  const include = schemas.itemQuery.properties?.include
  return include ? [includeParameter(resource, include.description ?? 'include', model)] : []
}

function includeParameter(resource: ResourceModel, description: string, model: ApiModel): OpenApiParameter {
  return listParameter(
    'include',
    description,
    { type: 'string', enum: resource.includes },
    { uniqueItems: true, maxItems: model.limits.includeMax },
  )
}

function buildFilterParameters(resource: ResourceModel, filter: FilterModel): OpenApiParameter[] {
  const field = fieldOf(resource, filter)
  const plural = resource.name.replaceAll('-', ' ')
  return filter.operators.map((operator) => {
    const name = `filter[${field.name}][${operator}]`
    const description =
      operator === 'null'
        ? `\`true\`: only ${plural} whose \`${field.name}\` is null; \`false\`: only those where it is not.`
        : `Only ${plural} whose \`${field.name}\` ${OPERATOR_PHRASES[operator]}.`
    const operand = operandSchema(field, operator)
    return operator === 'in'
      ? listParameter(name, description, operand, { uniqueItems: true })
      : parameter(name, description, operand)
  })
}

const OPERATOR_PHRASES: Readonly<Record<Exclude<FilterOperator, 'null'>, string>> = {
  eq: 'equals this value',
  ne: 'does not equal this value',
  gt: 'is greater (later) than this value',
  gte: 'is at least this value',
  lt: 'is less (earlier) than this value',
  lte: 'is at most this value',
  in: 'is one of these values',
  contains: 'contains this text, ignoring case (`%` and `_` match only themselves)',
  starts_with: 'starts with this text, ignoring case (`%` and `_` match only themselves)',
}

/** What one operand holds: the field's type (with its enum for eq and ne), text for text matches, a boolean for null. */
function operandSchema(field: FieldModel, operator: FilterOperator): JsonSchema {
  const kind = operandKindOf(operator)
  if (kind === 'presence') return { type: 'boolean' }
  if (kind === 'text') return { type: 'string' }
  const operand = buildOperandSchema(field)
  return field.enum !== null && kind !== 'bound' ? { ...operand, enum: field.enum } : operand
}

function fieldOf(resource: ResourceModel, filter: FilterModel): FieldModel {
  const field = resource.fields.find((candidate) => candidate.name === filter.field)
  if (!field) throw new Error(`internal error: "${resource.name}" filters on unknown field "${filter.field}"`)
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
