import { type ApiModel, type OperationModel, type VersionModel, findResource } from '../model/api-model.js'
import { buildOperationSchemas, type JsonSchema } from './json-schemas.js'
import { refResponse, refSchema } from './openapi-components.js'
import type { OpenApiMethod, OpenApiOperation, OpenApiParameter, OpenApiPathItem } from './openapi-objects.js'
import { secureWithRules } from './openapi-security.js'

/**
 * The path items of a version's custom operations, one per path (several
 * methods on one path share it): parameters, body and response from the
 * manifest's declaration, the problem responses its input can cause, and
 * `security` from its access rule. Rate-limit headers and 429 are added with
 * every other operation's (markRateLimited).
 * https://spec.openapis.org/oas/v3.1.0#path-item-object
 */
export function buildOperationPathItems(model: ApiModel, version: VersionModel): [string, OpenApiPathItem][] {
  const items = new Map<string, Record<string, OpenApiOperation>>()
  for (const operation of version.operations) {
    const path = `${version.prefix}${operation.path}`
    const item = items.get(path) ?? {}
    item[operation.method.toLowerCase() as OpenApiMethod] = buildOperation(model, operation)
    items.set(path, item)
  }
  return [...items].map(([path, item]) => [path, item as OpenApiPathItem])
}

// https://spec.openapis.org/oas/v3.1.0#operation-object
function buildOperation(model: ApiModel, operation: OperationModel): OpenApiOperation {
  const schemas = buildOperationSchemas(operation)
  const target = operation.idParam === null ? null : findResource(model, operation.resource)
  const parameters: OpenApiParameter[] = [
    ...(target && operation.idParam
      ? [
          {
            name: operation.idParam,
            in: 'path' as const,
            description: `Identifier of the ${words(target.singular)}.`,
            required: true as const,
            schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as JsonSchema,
          },
        ]
      : []),
    ...operation.query.map((field) => ({
      name: field.name,
      in: 'query' as const,
      description: `Query parameter \`${field.name}\`.`,
      ...(field.required ? { required: true as const } : {}),
      schema: schemas.query?.properties?.[field.name] ?? {},
    })),
  ]
  const on = target ? ` on one ${words(target.singular)}` : ''
  const secured: OpenApiOperation = {
    operationId: customOperationId(operation),
    tags: [operation.resource],
    summary: `${words(operation.name)}${on} (${operation.method})`,
    description:
      `A custom operation: its handler is the app module's \`operations['${operation.handler}']\`.` +
      (target
        ? ` 404 when ${words(target.singular)} \`{${operation.idParam}}\` does not exist, or the caller may not see it.`
        : ''),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(schemas.body ? { requestBody: { required: true, content: json(schemas.body) } } : {}),
    responses: {
      [operation.status]: successResponse(model, operation, schemas.result),
      400: refResponse('BadRequest'),
      ...(target ? { 404: refResponse('NotFound') } : {}),
      ...(schemas.body ? { 413: refResponse('PayloadTooLarge'), 415: refResponse('UnsupportedMediaType') } : {}),
    },
  }
  if (operation.access === null) return secured
  return secureWithRules(secured, operation.access, target?.owner ?? null, model)
}

function successResponse(model: ApiModel, operation: OperationModel, result: JsonSchema | null) {
  const { responds } = operation
  if (responds === null) return { description: 'Done; no body.' }
  const data = responds.kind === 'record' ? refSchema(findResource(model, responds.resource).typeName) : (result ?? {})
  return {
    description:
      responds.kind === 'record' ? `The ${words(findResource(model, responds.resource).singular)}.` : 'The result.',
    content: json({ type: 'object', properties: { data }, required: ['data'], additionalProperties: false }),
  }
}

/** `orders.cancellations.create` → `ordersCancellationsCreate`: unique, as handler keys are. */
export function customOperationId(operation: Pick<OperationModel, 'typeName'>): string {
  return operation.typeName.charAt(0).toLowerCase() + operation.typeName.slice(1)
}

function json(schema: JsonSchema) {
  return { 'application/json': { schema } }
}

/** `sales-by-month` → `sales by month`, for prose. */
function words(name: string): string {
  return name.replaceAll('-', ' ')
}
