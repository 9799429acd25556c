import { decimalPattern } from '../../runtime/contract/decimal-pattern.js'
import {
  type ApiModel,
  type ComputedFieldModel,
  type FieldModel,
  type OperationModel,
  type RelationModel,
  type ResourceModel,
  type RouteModel,
  findResource,
} from '../model/api-model.js'

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null'

/**
 * The JSON Schema keywords restmint emits: the common subset of draft-07
 * (what ajv compiles by default) and 2020-12 (the OpenAPI 3.1 dialect), so
 * one schema serves both. A type alias rather than an interface so it stays
 * assignable to ajv's index-signature `SchemaObject`.
 */
export type JsonSchema = {
  readonly $ref?: string
  readonly description?: string
  readonly type?: JsonType | readonly JsonType[]
  readonly format?: string
  readonly enum?: readonly (string | number | null)[]
  readonly minimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly default?: string | number | boolean
  readonly readOnly?: boolean
  readonly properties?: { readonly [name: string]: JsonSchema }
  readonly required?: readonly string[]
  readonly additionalProperties?: boolean
  readonly items?: JsonSchema
  readonly uniqueItems?: boolean
  readonly maxItems?: number
  readonly anyOf?: readonly JsonSchema[]
  readonly not?: JsonSchema
}

/**
 * Every schema of one resource. These are the single source for the body
 * validators (compiled with ajv standalone at generate time) and for the
 * OpenAPI components, so the documented contract is the enforced one.
 * Each is self-contained (no `$ref`) so it compiles on its own.
 */
export interface ResourceSchemas {
  /** One record as returned: every field present, server-managed ones `readOnly`. */
  readonly record: JsonSchema
  /** Top-level POST: writable fields, including the parent key when there is a parent. */
  readonly createBody: JsonSchema
  /** PUT: the full representation, the same shape as create. */
  readonly replaceBody: JsonSchema
  /** PATCH (JSON and merge patch): every writable field optional; `{}` is valid. */
  readonly updateBody: JsonSchema
  /** The nested variants omit the parent key, which comes from the path; null without a parent. */
  readonly nestedCreateBody: JsonSchema | null
  readonly nestedReplaceBody: JsonSchema | null
  readonly nestedUpdateBody: JsonSchema | null
}

/**
 * Integers are JavaScript numbers from the request to the database and back
 * (identifiers are SQLite/PostgreSQL 64-bit integers read into numbers), so
 * anything past ±(2^53 - 1) would lose precision or could not name a row:
 * every integer schema stops there, and such input is bad input (400)
 * rather than something that reaches the database.
 */
const INTEGER_MAXIMUM = Number.MAX_SAFE_INTEGER
const INTEGER_MINIMUM = -Number.MAX_SAFE_INTEGER

/** Builds the schemas of one resource from the normalized model. */
export function buildResourceSchemas(resource: ResourceModel, model: ApiModel): ResourceSchemas {
  const describe: DescribeField = (field) => describeField(field, resource, model)
  const writable = resource.fields.filter((field) => !field.serverManaged)
  const foreignKey = resource.parent?.foreignKey
  const nestedWritable = writable.filter((field) => field.name !== foreignKey)
  const nested = resource.parent !== null
  return {
    record: objectSchema(
      [
        ...resource.fields.map((field): [string, JsonSchema] => [field.name, recordFieldSchema(field, describe)]),
        ...resource.computed.map((field): [string, JsonSchema] => [field.name, computedFieldSchema(field)]),
      ],
      [...resource.fields.map((field) => field.name), ...resource.computed.map((field) => field.name)],
    ),
    createBody: fullBodySchema(writable, describe),
    replaceBody: fullBodySchema(writable, describe),
    updateBody: updateBodySchema(writable, describe),
    nestedCreateBody: nested ? fullBodySchema(nestedWritable, describe) : null,
    nestedReplaceBody: nested ? fullBodySchema(nestedWritable, describe) : null,
    nestedUpdateBody: nested ? updateBodySchema(nestedWritable, describe) : null,
  }
}

/**
 * The body of `POST /<resource>/{id}/<relation>` linking a record of a
 * many-to-many's target: the join resource's create body without the key the
 * path gives (`{ tag_id, ...the join's own fields }`).
 */
export function buildLinkBodySchema(relation: RelationModel, model: ApiModel): JsonSchema {
  const join = findResource(model, relation.through!.resource)
  const describe: DescribeField = (field) => describeField(field, join, model)
  const writable = join.fields.filter((field) => !field.serverManaged && field.name !== relation.foreignKey)
  return fullBodySchema(writable, describe)
}

/** The validator export of a many-to-many's link body in `<resource>-bodies.js`: `linkTagsBody`. */
export function linkBodyName(relation: Pick<RelationModel, 'name'>): string {
  const pascal = relation.name.replace(/(^|_)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase())
  return `link${pascal}Body`
}

/**
 * Path parameters of one route, in path order: each names a row, so it is a
 * positive safe integer (what the runtime's validatePathParams accepts).
 */
export function buildParamsSchema(route: RouteModel): JsonSchema {
  return objectSchema(
    route.params.map((name) => [name, { type: 'integer', minimum: 1, maximum: INTEGER_MAXIMUM }]),
    route.params,
  )
}

/** Create and replace: required fields must be present; omitted ones take their default. */
function fullBodySchema(fields: readonly FieldModel[], describe: DescribeField): JsonSchema {
  return objectSchema(
    fields.map((field) => [field.name, bodyFieldSchema(field, describe, true)]),
    fields.filter((field) => field.required).map((field) => field.name),
  )
}

/**
 * Update: any subset. No `default` here: a PATCH leaves omitted fields as
 * they are, and a default in the schema would read as the opposite.
 */
function updateBodySchema(fields: readonly FieldModel[], describe: DescribeField): JsonSchema {
  return objectSchema(
    fields.map((field) => [field.name, bodyFieldSchema(field, describe, false)]),
    [],
  )
}

type DescribeField = (field: FieldModel) => { description?: string }

function recordFieldSchema(field: FieldModel, describe: DescribeField): JsonSchema {
  return {
    ...describe(field),
    ...valueSchema(field, field.storedNullable),
    ...(field.serverManaged ? { readOnly: true } : {}),
  }
}

function computedFieldSchema(field: ComputedFieldModel): JsonSchema {
  const { type, format } = TYPE_SCHEMAS[field.type as ScalarFieldType]
  return {
    description: 'Computed by the server for each response; never stored, and cannot be filtered or sorted by.',
    type: field.nullable ? [type, 'null'] : type,
    ...(format !== null ? { format } : {}),
    readOnly: true,
  }
}

function bodyFieldSchema(field: FieldModel, describe: DescribeField, withDefault: boolean): JsonSchema {
  return {
    ...describe(field),
    ...valueSchema(field, field.nullable),
    ...(withDefault && field.default !== null ? { default: field.default } : {}),
  }
}

/** What the manifest implies but the schema keywords cannot say. */
function describeField(field: FieldModel, resource: ResourceModel, model: ApiModel): { description?: string } {
  const system = field.serverManaged ? SYSTEM_FIELD_DESCRIPTIONS[field.name] : undefined
  if (system) return { description: system }
  if (resource.owner?.field === field.name) {
    return {
      description: `The owner: the caller's \`${resource.owner.claim}\` claim, set by the server on create; never writable.`,
    }
  }
  if (field.references) {
    const target = findResource(model, field.references.resource).singular.replaceAll('-', ' ')
    const { relation } = field.references
    if (relation === null) return { description: `Identifier of the ${target} this belongs to.` }
    const embed = resource.includes.includes(relation) ? `; \`?include=${relation}\` embeds it` : ''
    return {
      description: `Identifier of the related ${target} (relation \`${relation}\`)${embed}.`,
    }
  }
  if (field.unique)
    return {
      description: `Unique among ${resource.name.replaceAll('-', ' ')}.`,
    }
  return {}
}

const SYSTEM_FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  id: 'Identifier assigned by the server.',
  created_at: 'When the record was created (RFC 3339, UTC). Set by the server.',
  updated_at: 'When the record was last changed (RFC 3339, UTC). Set by the server.',
}

/**
 * What the runtime checks a query operand against: the field's type and
 * format (`date`, `date-time`, `email`, `uri`, `uuid`), and for integers the
 * range both databases hold alike. Not its declared bounds or pattern:
 * `filter[price][gte]=-1` is a fair question even when no price is negative.
 */
export function buildOperandSchema(field: FieldModel): JsonSchema {
  const { type, format } = typeOf(field)
  return {
    type,
    ...(format !== null ? { format } : {}),
    ...(field.type === 'integer' ? { minimum: INTEGER_MINIMUM, maximum: INTEGER_MAXIMUM } : {}),
  }
}

function typeOf(field: FieldModel): { type: JsonType; format: string | null } {
  if (field.type === 'json' || field.type === 'array') {
    throw new Error(`internal error: a ${field.type} field has no operand schema`)
  }
  const { type, format } = TYPE_SCHEMAS[field.type]
  return { type, format: format ?? field.format }
}

/** The type and constraints of a field's values; `nullable` adds `null` to type and enum. */
function valueSchema(field: FieldModel, nullable: boolean): JsonSchema {
  if (field.type === 'json') return jsonFieldSchema(field, nullable)
  if (field.type === 'array') return arrayFieldSchema(field, nullable)
  const { type, format } = typeOf(field)
  const { minimum, maximum } = boundsOf(field)
  return {
    type: nullable ? [type, 'null'] : type,
    ...(format !== null ? { format } : {}),
    ...(field.enum !== null ? { enum: nullable ? [...field.enum, null] : field.enum } : {}),
    ...(minimum !== null ? { minimum } : {}),
    ...(maximum !== null ? { maximum } : {}),
    ...(field.minLength !== null ? { minLength: field.minLength } : {}),
    ...(field.maxLength !== null ? { maxLength: field.maxLength } : {}),
    ...(field.pattern !== null ? { pattern: field.pattern } : {}),
    ...(field.decimal ? { pattern: decimalPattern(field.decimal) } : {}),
  }
}

/** The manifest's schema as written (any JSON value without one); `nullable` admits null beside it. */
function jsonFieldSchema(field: FieldModel, nullable: boolean): JsonSchema {
  const declared = (field.jsonSchema ?? true) as JsonSchema
  if (field.jsonSchema === undefined) return nullable ? {} : { not: { type: 'null' } }
  return nullable ? { anyOf: [{ type: 'null' }, declared] } : declared
}

function arrayFieldSchema(field: FieldModel, nullable: boolean): JsonSchema {
  return {
    type: nullable ? ['array', 'null'] : 'array',
    ...(field.items ? { items: valueSchema(field.items, false) } : {}),
    ...(field.maxItems !== undefined ? { maxItems: field.maxItems } : {}),
  }
}

/** The declared bounds; for integers, within the safe range even when none (or a wider one) is declared. */
function boundsOf(field: FieldModel): { minimum: number | null; maximum: number | null } {
  if (field.type !== 'integer') return { minimum: field.minimum, maximum: field.maximum }
  return {
    minimum: Math.max(field.minimum ?? INTEGER_MINIMUM, INTEGER_MINIMUM),
    maximum: Math.min(field.maximum ?? INTEGER_MAXIMUM, INTEGER_MAXIMUM),
  }
}

type ScalarFieldType = Exclude<FieldModel['type'], 'json' | 'array'>

const TYPE_SCHEMAS: Record<ScalarFieldType, { type: JsonType; format: string | null }> = {
  decimal: { type: 'string', format: 'decimal' },
  string: { type: 'string', format: null },
  integer: { type: 'integer', format: null },
  number: { type: 'number', format: null },
  boolean: { type: 'boolean', format: null },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
}

/** A closed object: unknown properties (and so read-only ones in bodies) are rejected. */
function objectSchema(properties: readonly (readonly [string, JsonSchema])[], required: readonly string[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(properties),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  }
}

/** The schemas of one custom operation: null where it has none (no body, no query, no shape of its own). */
export interface OperationSchemas {
  readonly body: JsonSchema | null
  /** The query's values once read as their types (query strings are text until then). */
  readonly query: JsonSchema | null
  /** `responds: { fields }`: one object, or an array of them with `many: true`. */
  readonly result: JsonSchema | null
}

/**
 * Builds the schemas of one custom operation: closed objects; in the body
 * and query the `required` fields are required, and no default is applied
 * (the handler sees what was sent).
 */
export function buildOperationSchemas(operation: OperationModel): OperationSchemas {
  const noDescription: DescribeField = () => ({})
  const input = (fields: readonly FieldModel[]) =>
    objectSchema(
      fields.map((field) => [field.name, bodyFieldSchema(field, noDescription, false)]),
      fields.filter((field) => field.required).map((field) => field.name),
    )
  const { responds } = operation
  const result =
    responds?.kind === 'shape'
      ? objectSchema(
          responds.fields.map((field) => [field.name, recordFieldSchema(field, noDescription)]),
          // Like a record: every field present, null where the field is not required.
          responds.fields.map((field) => field.name),
        )
      : null
  return {
    body: operation.body === null ? null : input(operation.body),
    query: operation.query.length === 0 ? null : input(operation.query),
    result: result !== null && responds?.kind === 'shape' && responds.many ? { type: 'array', items: result } : result,
  }
}
