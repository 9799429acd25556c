import { aggregateResultKind } from '../../runtime/contract/aggregate-result-kind.js'
import type { AggregateRules } from '../../runtime/contract/aggregate-function.js'
import type { FieldModel, ResourceModel } from '../model/api-model.js'
import { buildOperandSchema, type JsonSchema, type JsonType } from './json-schemas.js'

/**
 * The 200 body of an aggregates GET: one page of groups, each with the
 * grouping values the request named, `count`, and `{ <function>: <value> }`
 * per aggregated field. Exact results (sums of integers) are strings of
 * digits, averages numbers, a minimum or maximum a value of its field.
 * `links` is the lists' PageLinks schema.
 */
export function buildAggregatePageSchema(
  resource: ResourceModel,
  aggregate: AggregateRules,
  links: JsonSchema,
): JsonSchema {
  const grouping = aggregate.groupBy.map((name) => [name, nullable(buildOperandSchema(fieldOf(resource, name)))])
  const aggregated = Object.entries(aggregate.functions).map(([name, functions]) => {
    const field = fieldOf(resource, name)
    const results = functions.map((fn) => [fn, resultSchema(field, aggregateResultKind(field.type, fn))])
    return [
      name,
      {
        description: `The functions of \`${name}\` the request asked for; null over no non-null value.`,
        type: 'object',
        properties: Object.fromEntries(results),
        additionalProperties: false,
      },
    ]
  })
  const group: JsonSchema = {
    description:
      'One group: the values of the `group_by` fields (present only when asked for), `count` and the aggregates.',
    type: 'object',
    properties: {
      ...Object.fromEntries(grouping),
      count: { description: 'The records in the group.', type: 'integer', minimum: 0 },
      ...Object.fromEntries(aggregated),
    },
    required: ['count'],
    additionalProperties: false,
  }
  return {
    description: `One page of groups of ${resource.name}.`,
    type: 'object',
    properties: {
      data: { type: 'array', items: group },
      meta: {
        type: 'object',
        properties: {
          per_page: { type: 'integer', minimum: 1 },
          next_cursor: {
            description: 'Pass as `cursor` for the next page of groups; null on the last page.',
            type: ['string', 'null'],
          },
        },
        required: ['per_page', 'next_cursor'],
        additionalProperties: false,
      },
      links,
    },
    required: ['data', 'meta', 'links'],
    additionalProperties: false,
  }
}

function resultSchema(field: FieldModel, kind: 'exact' | 'float' | 'column'): JsonSchema {
  if (kind === 'exact') return { type: ['string', 'null'], pattern: '^-?[0-9]+(\\.[0-9]+)?$' }
  if (kind === 'float') return { type: ['number', 'null'] }
  return nullable(buildOperandSchema(field))
}

function nullable(schema: JsonSchema): JsonSchema {
  return { ...schema, type: [schema.type as JsonType, 'null'] }
}

function fieldOf(resource: ResourceModel, name: string): FieldModel {
  const field = resource.fields.find((candidate) => candidate.name === name)
  if (!field) throw new Error(`internal error: "${resource.name}" aggregates unknown field "${name}"`)
  return field
}
