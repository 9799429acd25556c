import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { ApiDefinition } from '../contract/define-api.js'
import type { AppDefinition } from '../app/define-app.js'
import { identifyCallers } from '../access/identify-callers.js'
import { announceDeprecation } from '../ops/announce-deprecation.js'
import { createAccessControl, PUBLIC_ACCESS } from '../access/authorize-request.js'
import { authorizeRoutes } from '../access/authorize-route.js'
import { handleErrors } from '../problems/handle-errors.js'
import { declaredCharset, MERGE_PATCH } from '../http/media-types.js'
import { createCursorCodec } from '../query/page-cursor.js'
import { ProblemError, validationFailed } from '../problems/problem-error.js'
import { createResourceRegistrar } from './register-resource.js'
import { registerOperations, type OperationFunction, type OperationServices } from './register-operations.js'
import { compareOperationHandlers, describeOperationMismatch } from '../app/compare-operation-handlers.js'
import { ServerConfigurationError } from '../ops/server-configuration-error.js'
import { AppRuntime } from '../app/app-runtime.js'
import { checkAppModule } from '../app/check-app-module.js'
import type { RegisterResource } from '../contract/resource-routes.js'
import type { Storage } from '../storage/storage.js'

export interface ApiPluginOptions {
  /** An opened storage for this API's tables; `prepare()` it before serving. */
  readonly storage: Storage
  /**
   * The key cursors are signed with (HMAC-SHA-256). Default:
   * `RESTMINT_CURSOR_SECRET`, else a random key per process, so cursors do
   * not survive a restart and one instance refuses another's. Give every
   * instance behind one load balancer the same secret.
   */
  readonly cursorSecret?: string
  /** Where auth secrets and API keys are read (`secret_env`, `keys_env`); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** How long a JWKS request may take before the requests waiting on it answer 503 (default 5,000 ms). */
  readonly jwksTimeoutMs?: number
  /**
   * How long app-module code (a hook, a compute function, an operation's
   * handler) may run before its request fails and its write rolls back
   * (default 10,000 ms; 0: no limit).
   */
  readonly hookTimeoutMs?: number
  /** The manifest's `app:` module (its default export): hooks, computed fields, operations. */
  // Any Api: the module is typed by its own generated `Api`, which the runtime does not know.
  readonly app?: AppDefinition<any>
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

const DEFAULT_HOOK_TIMEOUT_MS = 10_000

/** A body the server would have to decode before reading it as JSON: another charset, or a content coding. */
function findUnreadableBody(request: FastifyRequest): ProblemError | undefined {
  const charset = declaredCharset(request.headers['content-type'] ?? '')
  if (charset !== undefined && charset !== 'utf-8') {
    return new ProblemError(
      'unsupported_media_type',
      `The body is declared as ${charset}; send it as UTF-8 (charset=utf-8, or no charset).`,
    )
  }
  const coding = request.headers['content-encoding']?.trim().toLowerCase()
  if (coding && coding !== 'identity') {
    return new ProblemError(
      'unsupported_media_type',
      `The body is sent with Content-Encoding: ${coding}; send it uncompressed, without Content-Encoding.`,
    )
  }
  return undefined
}

/**
 * The API as a Fastify plugin: every version under its prefix, with RFC 9457
 * errors. Encapsulated, so its error and not-found handlers stay inside it.
 */
export function createApiPlugin(api: ApiDefinition): FastifyPluginAsync<ApiPluginOptions> {
  return async (app, options) => {
    const cursors = createCursorCodec(options.cursorSecret ?? process.env.RESTMINT_CURSOR_SECRET)
    // Loaded only for an API with `auth:`: the others never pay for @fastify/jwt.
    const authenticate = api.auth
      ? identifyCallers(
          app,
          await (
            await import('../access/authenticate-request.js')
          ).registerAuthentication(app, api.auth.schemes, options.env ?? process.env, options.jwksTimeoutMs),
        )
      : null
    const tables = new Map(api.tables.map((table) => [table.name, table]))
    const appRuntime = options.app
      ? new AppRuntime(
          checkAppModule(api, options.app),
          options.storage,
          tables,
          api.computed ?? {},
          options.hookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
        )
      : null
    const operationHandlers = checkOperationHandlers(api, options.app)
    const newest = api.versions.at(-1)
    for (const version of api.versions) {
      // A version that kept older access rules (change_access) enforces them over the tables' own.
      const access =
        api.auth && authenticate
          ? createAccessControl(
              version.access ? { ...api.auth, resources: { ...api.auth.resources, ...version.access } } : api.auth,
              authenticate,
            )
          : PUBLIC_ACCESS
      const registerResource = createResourceRegistrar({
        storage: options.storage,
        limits: api.limits,
        tables,
        cursors,
        access,
        app: appRuntime,
      })
      const operations: OperationServices = {
        storage: options.storage,
        limits: api.limits,
        access,
        handlers: operationHandlers,
        // Asked per request, once every route (and so every resource db needs) is registered.
        db: (storage) => appRuntime?.dbOver(storage),
        hookTimeoutMs: appRuntime?.hookTimeoutMs ?? 0,
        computeRows: async (table, rows, request) => appRuntime?.computeRows(table, rows, [], request),
      }
      // Hooks speak the newest version's names: its resources are recorded as they register.
      const register: RegisterResource =
        appRuntime && version === newest
          ? (versionApp, resource) => {
              appRuntime.recordNewest(resource)
              registerResource(versionApp, resource)
            }
          : registerResource
      await app.register(
        async (versionApp) => {
          authorizeRoutes(versionApp, access)
          // Bodies are JSON only, in UTF-8 (RFC 8259), as sent: anything else (Fastify also parses
          // text/plain) is a 415, and bytes that are not UTF-8 are malformed, never replaced by U+FFFD.
          const parseJson = versionApp.getDefaultJsonParser('error', 'error')
          versionApp.removeContentTypeParser(['application/json', 'text/plain'])
          versionApp.addContentTypeParser(
            ['application/json', MERGE_PATCH],
            { parseAs: 'buffer' },
            (request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void) => {
              const unreadable = findUnreadableBody(request)
              if (unreadable) return done(unreadable)
              let text: string
              try {
                text = UTF8.decode(body)
              } catch {
                return done(
                  new ProblemError('malformed_body', 'The body is not valid UTF-8; send JSON encoded as UTF-8.'),
                )
              }
              parseJson(request, text, (error, parsed) => done(error && (refusePrototypeKey(text) ?? error), parsed))
            },
          )
          if (version.deprecation) announceDeprecation(versionApp, version.prefix, version.deprecation)
          handleErrors(versionApp, api.limits)
          version.register(versionApp, register)
          if (version.operations) registerOperations(versionApp, version.name, version.operations, operations)
        },
        { prefix: version.prefix },
      )
    }
  }
}

/**
 * Fastify's parser refuses a `__proto__` key, or `constructor` holding `prototype` (they could poison an object's
 * prototype), as "not valid JSON". The JSON is valid: name the key instead, at its pointer, as any field that
 * is not one. Null when `text` has no such key (the parser refused it for another reason).
 */
function refusePrototypeKey(text: string): ProblemError | null {
  let pointer: string | null
  try {
    pointer = findPrototypeKey(JSON.parse(text), '')
  } catch {
    // Too deeply nested to walk: Fastify's own answer stands.
    return null
  }
  if (pointer === null) return null
  const key = pointer.slice(pointer.lastIndexOf('/') + 1)
  return validationFailed('body', [
    { in: 'body', pointer, detail: `is not a field: "${key}" names the prototype of JavaScript objects` },
  ])
}

/** The JSON pointer of the first `__proto__` key, or `prototype` key under `constructor`, in a parsed value. */
function findPrototypeKey(value: unknown, pointer: string): string | null {
  if (typeof value !== 'object' || value === null) return null
  for (const [key, member] of Object.entries(value)) {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
    if (key === '__proto__') return at
    if (key === 'constructor' && typeof member === 'object' && member !== null && Object.hasOwn(member, 'prototype')) {
      return `${at}/prototype`
    }
    const found = findPrototypeKey(member, at)
    if (found !== null) return found
  }
  return null
}

/**
 * The app module's operation handlers, when they are exactly the declared
 * operations' (every version serves the same ones); else the server refuses
 * to start, naming each mismatch.
 */
function checkOperationHandlers(
  api: ApiDefinition,
  app: AppDefinition<any> | undefined,
): Readonly<Record<string, OperationFunction>> {
  const declared = [
    ...new Set(api.versions.flatMap((version) => version.operations ?? []).map((route) => route.handler)),
  ]
  const mismatches = compareOperationHandlers(app?.operations, declared)
  if (mismatches.length > 0) {
    throw new ServerConfigurationError(
      `the app module disagrees with the manifest's operations: ${mismatches.map(describeOperationMismatch).join('; ')}`,
    )
  }
  return (app?.operations ?? {}) as Readonly<Record<string, OperationFunction>>
}
