import type { OpenApiOperation, OpenApiPathItem, OpenApiReference, OpenApiResponse } from './openapi-objects.js'

/**
 * A path item with `transform` applied to each of its operations, whose
 * inline responses (not `$ref`s, which their components hold) `response`
 * maps first: how markDeprecated and markRateLimited touch every operation.
 */
export function mapOperations(
  item: OpenApiPathItem,
  response: (inline: OpenApiResponse) => OpenApiResponse,
  transform: (operation: OpenApiOperation) => OpenApiOperation,
): OpenApiPathItem {
  const mapped: Record<string, unknown> = { ...item }
  for (const method of OPENAPI_METHODS) {
    const operation = item[method]
    if (!operation) continue
    const responses: Record<string, OpenApiResponse | OpenApiReference> = {}
    for (const [status, each] of Object.entries(operation.responses)) {
      responses[status] = '$ref' in each ? each : response(each)
    }
    mapped[method] = transform({ ...operation, responses })
  }
  return mapped as OpenApiPathItem
}

/** Every method an OpenAPI path item of this generator may hold. */
export const OPENAPI_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
