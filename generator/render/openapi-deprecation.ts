import type { DeprecationModel, VersionModel } from '../model/api-model.js'
import { SHARED_SCHEMAS } from '../names/generated-names.js'
import type { JsonSchema } from './json-schemas.js'
import { mapOperations } from './map-operations.js'
import type { OpenApiDocument, OpenApiHeader, OpenApiReference, OpenApiResponse } from './openapi-objects.js'

/**
 * The document of a deprecated version: every operation `deprecated: true`,
 * every response documenting the `Deprecation`, `Sunset` and `Link` headers,
 * every JSON body its `meta.deprecated` and `meta.sunset` (problem details as
 * an extension member), and the description saying when, until when and
 * where the guide is, which /docs shows.
 * https://spec.openapis.org/oas/v3.1.0#operation-object
 */
export function markDeprecated(
  document: OpenApiDocument,
  version: VersionModel,
  deprecation: DeprecationModel,
): OpenApiDocument {
  const headerComponents = buildHeaderComponents(deprecation)
  const headers: Record<string, OpenApiReference> = Object.fromEntries(
    Object.keys(headerComponents).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  )
  const withHeaders = (response: OpenApiResponse): OpenApiResponse => ({
    ...response,
    headers: { ...response.headers, ...headers },
  })
  const { schemas, responses } = document.components
  return {
    ...document,
    info: { ...document.info, description: `${document.info.description}\n\n${describe(version, deprecation)}` },
    paths: Object.fromEntries(
      Object.entries(document.paths).map(([path, item]) => [
        path,
        mapOperations(
          item,
          (response) => withHeaders(withEnvelopeMeta(response)),
          (operation) => ({ ...operation, deprecated: true }),
        ),
      ]),
    ),
    components: {
      ...document.components,
      schemas: {
        ...schemas,
        [SHARED_SCHEMAS.pageMeta]: withDeprecationMeta(schemas[SHARED_SCHEMAS.pageMeta]!),
        [SHARED_SCHEMAS.problem]: {
          ...schemas[SHARED_SCHEMAS.problem]!,
          properties: {
            ...schemas[SHARED_SCHEMAS.problem]!.properties,
            meta: {
              description: "Extension member: this version's deprecation.",
              ...withDeprecationMeta(DEPRECATION_ONLY),
            },
          },
        },
      },
      responses: Object.fromEntries(Object.entries(responses).map(([name, response]) => [name, withHeaders(response)])),
      headers: { ...document.components.headers, ...headerComponents },
    },
  }
}

/** `{ data }` bodies gain the `meta` of a deprecated version (a collection's comes with PageMeta). */
function withEnvelopeMeta(response: OpenApiResponse): OpenApiResponse {
  const json = response.content?.['application/json']
  const envelope = json?.schema
  if (!json || envelope?.properties?.data === undefined) return response
  // Always present now; `truncated` only when an embedded array was cut.
  const { required: _truncated, description: _presence, ...meta } = envelope.properties.meta ?? DEPRECATION_ONLY
  const schema: JsonSchema = {
    ...envelope,
    properties: {
      ...envelope.properties,
      meta: { description: "This version's deprecation.", ...withDeprecationMeta(meta) },
    },
    required: [...(envelope.required ?? []), 'meta'],
  }
  return { ...response, content: { ...response.content, 'application/json': { ...json, schema } } }
}

const DEPRECATION_ONLY: JsonSchema = { type: 'object', properties: {}, additionalProperties: false }

function withDeprecationMeta(meta: JsonSchema): JsonSchema {
  return {
    ...meta,
    properties: {
      ...meta.properties,
      deprecated: {
        description: 'Always true: this API version is deprecated (the `Deprecation` header says since when).',
        type: 'boolean',
      },
      sunset: {
        description: 'The day (UTC) this version may stop answering, as in the `Sunset` header; null when not set.',
        type: ['string', 'null'],
        format: 'date',
      },
    },
    required: [...(meta.required ?? []), 'deprecated', 'sunset'],
  }
}

// https://www.rfc-editor.org/rfc/rfc9745, https://www.rfc-editor.org/rfc/rfc8594, https://www.rfc-editor.org/rfc/rfc8288
function buildHeaderComponents(deprecation: DeprecationModel): Record<string, OpenApiHeader> {
  return {
    Deprecation: {
      description: `RFC 9745: deprecated since ${deprecation.deprecated} 00:00 UTC, as \`@<seconds since the epoch>\`.`,
      required: true,
      schema: { type: 'string', pattern: '^@-?[0-9]+$' },
    },
    ...(deprecation.sunset === null
      ? {}
      : {
          Sunset: {
            description: `RFC 8594: this version may stop answering from ${deprecation.sunset} 00:00 UTC (an HTTP-date).`,
            required: true,
            schema: { type: 'string' },
          },
        }),
    Link: {
      description:
        'RFC 8288: the migration guide (`rel="deprecation"`) and the same path in the successor version ' +
        '(`rel="successor-version"`).',
      required: true,
      schema: { type: 'string' },
    },
  }
}

function describe(version: VersionModel, deprecation: DeprecationModel): string {
  const sunset = deprecation.sunset === null ? '' : `; it may stop answering from ${deprecation.sunset}`
  const successor = deprecation.successorPrefix.slice(1)
  return (
    `**Deprecated** since ${deprecation.deprecated}${sunset}. ` +
    `Migrate to ${successor} with the [migration guide](${deprecation.guide}); ` +
    `every ${version.name} response carries \`Deprecation\`, \`Sunset\` and \`Link\` headers and \`meta.deprecated\`.`
  )
}
