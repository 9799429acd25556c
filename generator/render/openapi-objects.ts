import type { JsonSchema } from './json-schemas.js'

/**
 * The OpenAPI 3.1 objects restmint emits, as plain JSON-serializable data.
 * Only the fields it uses are typed.
 * https://spec.openapis.org/oas/v3.1.0#schema
 */
export interface OpenApiDocument {
  readonly openapi: '3.1.0'
  readonly info: { readonly title: string; readonly description: string; readonly version: string }
  readonly servers: readonly { readonly url: string }[]
  readonly tags: readonly { readonly name: string; readonly description: string }[]
  readonly paths: { readonly [path: string]: OpenApiPathItem }
  readonly components: OpenApiComponents
}

// https://spec.openapis.org/oas/v3.1.0#components-object
export interface OpenApiComponents {
  readonly schemas: { readonly [name: string]: JsonSchema }
  /** Create and replace bodies, whose omitted fields take their default (openapi-components.ts says why here). */
  readonly requestBodies: { readonly [name: string]: OpenApiRequestBody }
  readonly responses: { readonly [name: string]: OpenApiResponse }
  readonly headers: { readonly [name: string]: OpenApiHeader }
  readonly securitySchemes?: { readonly [name: string]: object }
}

/** Lower-case HTTP methods, as OpenAPI path item keys. */
export type OpenApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

// https://spec.openapis.org/oas/v3.1.0#path-item-object
export type OpenApiPathItem = {
  readonly parameters?: readonly OpenApiParameter[]
} & { readonly [method in OpenApiMethod]?: OpenApiOperation }

// https://spec.openapis.org/oas/v3.1.0#operation-object
export interface OpenApiOperation {
  readonly operationId: string
  readonly tags: readonly string[]
  readonly summary: string
  readonly description: string
  readonly parameters?: readonly OpenApiParameter[]
  readonly requestBody?: OpenApiRequestBody | OpenApiReference
  /** Every operation of a deprecated version. */
  readonly deprecated?: true
  readonly responses: { readonly [status: string]: OpenApiResponse | OpenApiReference }
  /** With `auth:`: `[]` for a public operation, else the requirements any of which grants it. */
  readonly security?: readonly OpenApiSecurityRequirement[]
  /** The owner rule: the rules of the operation, and the field compared with the caller's claim. */
  readonly 'x-restmint-access'?: object
  /** On DELETE of a `soft_delete: true` resource: the record is stamped, not removed (DELETE_MADE_SOFT). */
  readonly 'x-restmint-soft-delete'?: true
}

// https://spec.openapis.org/oas/v3.1.0#security-requirement-object
export type OpenApiSecurityRequirement = { readonly [scheme: string]: readonly string[] }

// https://spec.openapis.org/oas/v3.1.0#parameter-object
export interface OpenApiParameter {
  readonly name: string
  readonly in: 'path' | 'query' | 'header'
  readonly description: string
  readonly required?: true
  /** With `explode: true`, an array is the parameter repeated: `?include=author&include=category`. */
  readonly style?: 'form'
  readonly explode?: true
  readonly schema: JsonSchema
}

// https://spec.openapis.org/oas/v3.1.0#request-body-object
export interface OpenApiRequestBody {
  readonly required: true
  readonly content: OpenApiContent
}

// https://spec.openapis.org/oas/v3.1.0#response-object
export interface OpenApiResponse {
  readonly description: string
  readonly headers?: { readonly [name: string]: OpenApiHeader | OpenApiReference }
  readonly content?: OpenApiContent
}

// https://spec.openapis.org/oas/v3.1.0#header-object
export interface OpenApiHeader {
  readonly description: string
  readonly required: boolean
  readonly schema: JsonSchema
}

/** Media type → schema. https://spec.openapis.org/oas/v3.1.0#media-type-object */
export type OpenApiContent = { readonly [mediaType: string]: { readonly schema: JsonSchema } }

// https://spec.openapis.org/oas/v3.1.0#reference-object
export interface OpenApiReference {
  readonly $ref: string
}
