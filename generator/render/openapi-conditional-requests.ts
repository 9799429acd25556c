import type { ResourceModel } from '../model/api-model.js'
import type { OperationVerb } from '../names/generated-names.js'
import { SHARED_SCHEMAS } from '../names/generated-names.js'
import type { OpenApiHeader, OpenApiOperation, OpenApiParameter, OpenApiResponse } from './openapi-objects.js'

type OperationBody = Pick<OpenApiOperation, 'description' | 'parameters' | 'requestBody' | 'responses'>

const ETAG_REF = { $ref: '#/components/headers/ETag' }

/**
 * An operation with its conditional requests (RFC 9110 §13): `ETag` on every
 * single-record answer, `If-None-Match` and 304 on GET, `If-Match` and
 * `If-None-Match` with 412 (and 428 where the resource requires `If-Match`)
 * on PUT, PATCH and DELETE.
 * https://www.rfc-editor.org/rfc/rfc9110#section-13
 */
export function addConditionalRequests(
  verb: OperationVerb,
  resource: ResourceModel,
  body: OperationBody,
): OperationBody {
  const { responses } = body
  switch (verb) {
    case 'list':
    case 'aggregate':
      return body
    case 'create':
      return { ...body, responses: { ...responses, 201: withETag(responses[201]) } }
    case 'get':
      return operation(body, body.description, [IF_NONE_MATCH], {
        ...responses,
        200: withETag(responses[200]),
        304: { $ref: '#/components/responses/NotModified' },
      })
    case 'replace':
    case 'update':
    case 'delete': {
      const required = resource.requireIfMatch
      const headers = [ifMatch(required), IF_NONE_MATCH_ON_WRITE]
      return operation(body, `${body.description} ${required ? REQUIRED_NOTE : OPTIONAL_NOTE}`, headers, {
        ...responses,
        ...(verb === 'delete' ? {} : { 200: withETag(responses[200]) }),
        412: { $ref: '#/components/responses/PreconditionFailed' },
        ...(required ? { 428: { $ref: '#/components/responses/PreconditionRequired' } } : {}),
      })
    }
  }
}

/** The operation with its conditional header parameters, in the document's member order. */
function operation(
  body: OperationBody,
  description: string,
  headers: readonly OpenApiParameter[],
  responses: OpenApiOperation['responses'],
): OperationBody {
  return {
    description,
    parameters: [...(body.parameters ?? []), ...headers],
    ...(body.requestBody ? { requestBody: body.requestBody } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  }
}

const OPTIONAL_NOTE =
  'With `If-Match` (the `ETag` of a read), it writes only if nobody changed the record since: 412 otherwise.'
const REQUIRED_NOTE =
  '`If-Match` is required (428 without): send the `ETag` of a read, and it writes only if nobody changed ' +
  'the record since (412 otherwise), or `*` to write whatever it holds.'

function withETag(response: OpenApiOperation['responses'][string] | undefined): OpenApiResponse {
  if (response === undefined || '$ref' in response) throw new Error('internal error: no inline response to tag')
  return { ...response, headers: { ...response.headers, ETag: ETAG_REF } }
}

const IF_NONE_MATCH: OpenApiParameter = {
  name: 'If-None-Match',
  in: 'header',
  description:
    'ETags of the copies the client holds, or `*`: when one matches the record (weak comparison), the answer is 304 without a body. ' +
    'Never with `include`: the records it embeds change without changing the tag.',
  schema: { type: 'string' },
}

const IF_NONE_MATCH_ON_WRITE: OpenApiParameter = {
  name: 'If-None-Match',
  in: 'header',
  description:
    'ETags the client must not overwrite, or `*` for any existing record: when one matches (weak comparison), nothing is written and the answer is 412.',
  schema: { type: 'string' },
}

function ifMatch(required: boolean): OpenApiParameter {
  return {
    name: 'If-Match',
    in: 'header',
    description:
      'The ETag the client last read (strong comparison; a list matches when any does), or `*` for any existing record. ' +
      'Checked atomically with the write: 412 when the record changed since.',
    ...(required ? { required: true as const } : {}),
    schema: { type: 'string' },
  }
}

/** The components the operations above refer to; PreconditionRequired only when some resource requires If-Match. */
export function buildConditionalComponents(resources: readonly ResourceModel[]): {
  headers: Record<string, OpenApiHeader>
  responses: Record<string, OpenApiResponse>
} {
  const problem = { 'application/problem+json': { schema: { $ref: `#/components/schemas/${SHARED_SCHEMAS.problem}` } } }
  return {
    headers: { ETag: ETAG },
    responses: {
      NotModified: { description: 'The copy the client holds is current; no body.', headers: { ETag: ETAG_REF } },
      PreconditionFailed: {
        description:
          'The record changed since the `If-Match` ETag was read; nothing was written. `ETag` is the current one.',
        headers: { ETag: ETAG_REF },
        content: problem,
      },
      ...(resources.some((resource) => resource.requireIfMatch)
        ? {
            PreconditionRequired: {
              description: 'This resource is written only with `If-Match`: read the record and send its `ETag`.',
              content: problem,
            },
          }
        : {}),
    },
  }
}

// https://www.rfc-editor.org/rfc/rfc9110#section-8.8.3
const ETAG: OpenApiHeader = {
  description:
    'Strong entity tag of the stored record: the same for every `include` and version, and on every server; it changes with every write.',
  required: true,
  schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{22}"$' },
}
