import type { ApiModel } from '../model/api-model.js'
import { SHARED_SCHEMAS } from '../names/generated-names.js'
import { mapOperations } from './map-operations.js'
import type { OpenApiDocument, OpenApiHeader, OpenApiReference, OpenApiResponse } from './openapi-objects.js'

const HEADER_REFS: Record<string, OpenApiReference> = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
}

/**
 * The document of a rate-limited API (`limits.rate`): every response
 * documents `RateLimit` and `RateLimit-Policy`, every operation a 429 with
 * `Retry-After`, and the description states the limits. Limits are not part
 * of the contract the breaking-change gate compares (it ignores
 * descriptions and these headers' values): changing one is an operational
 * decision, not a change of the interface.
 * https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
 */
export function markRateLimited(document: OpenApiDocument, model: ApiModel): OpenApiDocument {
  if (model.rate === null) return document
  const withHeaders = (response: OpenApiResponse): OpenApiResponse => ({
    ...response,
    headers: { ...response.headers, ...HEADER_REFS },
  })
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      mapOperations(item, withHeaders, (operation) => ({
        ...operation,
        responses: { ...operation.responses, 429: { $ref: '#/components/responses/TooManyRequests' } },
      })),
    ]),
  )
  const { responses, headers } = document.components
  return {
    ...document,
    info: { ...document.info, description: `${document.info.description}\n\n${describeLimits(model)}` },
    paths,
    components: {
      ...document.components,
      responses: {
        ...Object.fromEntries(Object.entries(responses).map(([name, response]) => [name, withHeaders(response)])),
        TooManyRequests: withHeaders(TOO_MANY_REQUESTS),
      },
      headers: { ...headers, ...HEADERS },
    },
  }
}

function describeLimits(model: ApiModel): string {
  const { requests, windowSeconds } = model.rate!
  const own = model.resources
    .filter((resource) => resource.rate !== null)
    .map((resource) => `${resource.name}: ${resource.rate!.requests} per ${resource.rate!.windowSeconds} s`)
  return (
    `Rate limits: ${requests} requests per ${windowSeconds} s per client (its authenticated subject or API key, ` +
    `else its IP address)${own.length > 0 ? `; ${own.join(', ')}` : ''}. ` +
    'Past a limit the answer is 429 with `Retry-After`; `RateLimit` and `RateLimit-Policy` on every response ' +
    'say how many requests remain and when the window resets.'
  )
}

const TOO_MANY_REQUESTS: OpenApiResponse = {
  description: 'The client sent more requests than its limit allows in the window; retry after `Retry-After` seconds.',
  headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  content: { 'application/problem+json': { schema: { $ref: `#/components/schemas/${SHARED_SCHEMAS.problem}` } } },
}

const HEADERS: Record<string, OpenApiHeader> = {
  RateLimit: {
    description:
      'The quota left: `"<policy>";r=<requests remaining>;t=<seconds until the window resets>`, e.g. `"default";r=599;t=42`.',
    required: false,
    schema: { type: 'string', pattern: '^"[^"]+";r=[0-9]+;t=[0-9]+$' },
  },
  'RateLimit-Policy': {
    description: 'The quota policy: `"<policy>";q=<requests>;w=<window in seconds>`, e.g. `"default";q=600;w=60`.',
    required: false,
    schema: { type: 'string', pattern: '^"[^"]+";q=[0-9]+;w=[0-9]+$' },
  },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
}
