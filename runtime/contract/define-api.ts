import type { FieldType } from './field-type.js'
import type { ApiAuth, TableAccess } from './access-rule.js'
import type { HookName } from './hook-name.js'
import type { FastifyInstance } from 'fastify'
import type { ApiLimits } from './api-limits.js'
import type { OperationRoute } from './operation-route.js'
import type { ServiceRatePolicy } from './rate-policy.js'
import type { RegisterResource } from './resource-routes.js'
import type { TableDefinition } from './table-definition.js'

export interface ApiVersion {
  /** `v1` */
  readonly name: string
  /** `/v1` */
  readonly prefix: string
  /** Registers the version's routes, without the prefix. */
  readonly register: (app: FastifyInstance, registerResource: RegisterResource) => void
  /**
   * Loads the version's OpenAPI document, served at /docs: megabytes for a
   * large API, so it is parsed on the first /docs request, not at start-up.
   */
  readonly openapi: () => Promise<{ readonly default: object }>
  /** Present when the manifest declares the version deprecated. */
  readonly deprecation?: ApiDeprecation
  /**
   * The tables whose access rules this version keeps from before a newer
   * version changed them (`change_access`), over `ApiDefinition.auth`'s.
   */
  readonly access?: Readonly<Record<string, TableAccess>>
  /** The version's custom operations (the manifest's `operations:`); their handlers are the app module's. */
  readonly operations?: readonly OperationRoute[]
}

/** A deprecated version's dates and links, as the manifest's `versions.<name>` gives them. */
export interface ApiDeprecation {
  /** `YYYY-MM-DD`: deprecated from 00:00 UTC that day. */
  readonly deprecated: string
  /** `YYYY-MM-DD`: may stop answering from 00:00 UTC that day; null when not set. */
  readonly sunset: string | null
  /** URL of the migration guide. */
  readonly guide: string
  /** `/v2`: the same path under this prefix is the successor version's. */
  readonly successorPrefix: string
  /**
   * Routes whose successor is elsewhere: the version's route (`/authors/:id`,
   * without the prefix) → the successor's under successorPrefix, its `:params`
   * filled from the request (`/writers/:id`; a re-rooted collection's
   * `/comments?post_id=:post_id`), or null when it has none.
   */
  readonly successorRoutes?: Readonly<Record<string, string | null>>
}

/** The migration guide from one version to the next, an HTML page generated from the manifest's `changes`. */
export interface ApiGuide {
  /** `/docs/migrate-v1-to-v2` */
  readonly path: string
  /** Loads the page (generated `docs/migrate-v1-to-v2.ts`) on its first request. */
  readonly page: () => Promise<{ readonly page: string }>
}

/** Everything generated server.ts tells the runtime about an API. */
export interface ApiDefinition {
  readonly title: string
  readonly limits: ApiLimits
  /** In manifest order (the storage creates referenced tables first). */
  readonly tables: readonly TableDefinition[]
  readonly versions: readonly ApiVersion[]
  /** One per pair of consecutive versions; none with a single version. */
  readonly guides?: readonly ApiGuide[]
  /** Authentication schemes and every table's access rules; absent when the manifest has no `auth:`. */
  readonly auth?: ApiAuth
  /** The manifest's `limits.rate`: every client's limit, unless the resource sets its own `rate`. */
  readonly rate?: ServiceRatePolicy
  /** The manifest's `http:`. */
  readonly http?: ApiHttp
  /** The hooks each resource's `hooks:` declares, by the newest version's resource name; the app module must export exactly these. */
  readonly hooks?: Readonly<Record<string, readonly HookName[]>>
  /**
   * Each resource's computed fields and their types, by the newest version's
   * resource name; its `compute` function returns them.
   */
  readonly computed?: Readonly<Record<string, Readonly<Record<string, FieldType>>>>
}

/** How the server meets the network: proxies in front of it, browsers on other origins. */
export interface ApiHttp {
  /**
   * Fastify's `trustProxy`: how many proxy hops, or which proxy addresses
   * (CIDRs), to believe about the client's address (`X-Forwarded-For`); never
   * every one, or any client could pick the address rate limits count.
   */
  readonly trustProxy?: number | readonly string[]
  readonly cors?: ApiCors
}

/** Identity function that gives generated code a checked type. */
export function defineApi(definition: ApiDefinition): ApiDefinition {
  return definition
}

/** The manifest's `http.cors`, with the request headers browsers may send. */
export interface ApiCors {
  /** Absolute origins (`https://app.example.com`), or `*` alone: any origin, never with credentials. */
  readonly origins: readonly string[]
  /** How long browsers may cache a preflight's answer; absent: their own default. */
  readonly maxAgeSeconds?: number
  /** `Authorization`, `Content-Type`, `If-Match`, `If-None-Match` and the API-key headers. */
  readonly allowedHeaders: readonly string[]
}
