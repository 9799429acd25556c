import { METHODS, type Server } from 'node:http'
import type { Redis } from 'ioredis'
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { createApiPlugin } from './create-api-plugin.js'
import type { ApiDefinition } from '../contract/define-api.js'
import type { AppDefinition } from '../app/define-app.js'
import {
  answerClientError,
  handleErrors,
  handleFrameworkError,
  MAX_PATH_SEGMENT_LENGTH,
  refuseExpectation,
  refuseTunnel,
  sendProblem,
} from '../problems/handle-errors.js'
import { countRequests } from '../ops/count-requests.js'
import { drainOnClose } from '../ops/drain-on-close.js'
import { connectRedis, disconnectRedis } from '../ops/connect-redis.js'
import { registerHealthRoutes, type ReadinessCheck } from '../ops/health-routes.js'
import { ProblemError } from '../problems/problem-error.js'
import { registerApiDocs } from '../ops/register-api-docs.js'
import { seedSampleRows } from '../storage/seed-sample-rows.js'
import { createStorage } from '../storage/create-storage.js'
import type { PostgresPoolOptions } from '../storage/postgres/postgres-dialect.js'
import type { Storage } from '../storage/storage.js'

/** How long the server waits for clients, in milliseconds (0 turns one off). */
export interface ServerTimeouts {
  /** For the whole request, headers and body, to arrive; then 408. Default 30,000. */
  readonly requestMs?: number
  /** For the request line and headers to arrive; then 408. Default 10,000 (at most `requestMs`). */
  readonly headersMs?: number
  /** An idle keep-alive connection stays open this long. Default 72,000 (longer than common load balancers' 60 s). */
  readonly keepAliveMs?: number
  /** A JWKS request may take this long; then the requests waiting on it answer 503. Default 5,000. */
  readonly jwksMs?: number
  /**
   * A hook, compute function or operation's handler of the app module may run
   * this long; then its request answers 500 (`hook_failed`,
   * `operation_failed`) and its write is rolled back (an `afterCommit` is
   * only logged). Default 10,000; 0: no limit.
   */
  readonly hookMs?: number
}

export interface ServerOptions {
  /** `sqlite:./file.db`, `sqlite::memory:` (the default) or `postgres://…`. Ignored when `storage` is given. */
  readonly db?: string
  /** PostgreSQL schema holding every table (default `public`); ignored for SQLite and when `storage` is given. */
  readonly schema?: string
  /** A storage you opened yourself; the server prepares it but does not close it. */
  readonly storage?: Storage
  /**
   * Create missing tables and indexes (default true). False when migrations
   * manage the schema: the server then only checks that the tables match,
   * and refuses to start (SchemaMismatchError) when one is missing.
   */
  readonly createMissing?: boolean
  /** Insert a few sample rows into empty tables (the example server does). */
  readonly seed?: boolean
  /** Fastify's logger option. Default: off. */
  readonly logger?: FastifyServerOptions['logger']
  /** Serve the API reference at /docs. Default: true. */
  readonly docs?: boolean
  /** Count requests and serve the counts at /metrics (Prometheus text format). Default: true. */
  readonly metrics?: boolean
  /** See ApiPluginOptions.cursorSecret. Default: `RESTMINT_CURSOR_SECRET`, else a random key per process. */
  readonly cursorSecret?: string
  /** See ApiPluginOptions.env: where auth secrets and API keys are read. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly timeouts?: ServerTimeouts
  /** PostgreSQL's connection pool (size, wait for a connection); ignored for SQLite and when `storage` is given. */
  readonly pool?: PostgresPoolOptions
  /**
   * Redis (`redis://…`) holding the rate limits' counts, shared by every
   * instance that uses it. Default: `REDIS_URL`; without either, each process
   * counts in its own memory; `''` keeps them in memory even when
   * `REDIS_URL` is set. Used only when the API has rate limits: the server
   * then refuses to start when it cannot connect, and /health/ready checks it.
   */
  readonly redisUrl?: string
  /** Starts every Redis key the server writes. Default: `REDIS_KEY_PREFIX`, else `restmint:rate:`. */
  readonly redisKeyPrefix?: string
  /**
   * How long `close()` lets requests in flight finish, in milliseconds, before
   * it closes their connections. Default 10,000.
   */
  readonly shutdownTimeoutMs?: number
  /**
   * The manifest's `app:` module (its default export): hooks, computed fields
   * and operations. Generated `buildServer` passes the module it imports.
   */
  // Any Api: the module is typed by its own generated `Api`, which the runtime does not know.
  readonly app?: AppDefinition<any>
}

type SchemaCompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>

/**
 * In place of Fastify's own schema compilers, which it loads (ajv and
 * fast-json-stringify, ~40 ms) for every server it creates: no route of the
 * API has a Fastify schema (bodies are checked by the validators compiled at
 * generate time, query strings by parseQueryString). A route of your own
 * that declares one says what to do instead.
 */
const NO_SCHEMA_COMPILERS: Required<SchemaCompilersFactory> = {
  buildValidator: () => refuseSchemas(),
  buildSerializer: () => refuseSchemas(),
}

function refuseSchemas(): never {
  throw new Error(
    'a route added to the server buildServer returns declares a Fastify schema, and the server has no schema ' +
      'compilers (restmint validates with the ones it generates); give your routes compilers first with ' +
      'app.setValidatorCompiler(...) and app.setSerializerCompiler(...), or check the input in the handler',
  )
}

const DEFAULT_TIMEOUTS: Required<Omit<ServerTimeouts, 'jwksMs' | 'hookMs'>> = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 72_000,
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000

/**
 * A Fastify instance serving the API, and /health/live and /health/ready, not
 * yet listening: routes of your own may still be added, and `listen` (or
 * `inject`) is the caller's. Prepares the database first: creates missing
 * tables (unless `createMissing` is false), and refuses to start
 * (SchemaMismatchError) when existing tables disagree with the manifest. Its
 * `close()` drains (see drainOnClose): call it on SIGTERM.
 */
export async function buildApiServer(api: ApiDefinition, options: ServerOptions = {}): Promise<FastifyInstance> {
  const storage =
    options.storage ??
    createStorage(options.db ?? 'sqlite::memory:', api.tables, { schema: options.schema, pool: options.pool })
  const ownsStorage = !options.storage
  try {
    await storage.prepare({ createMissing: options.createMissing ?? true })
    if (options.seed) await seedSampleRows(storage, api.tables)
  } catch (error) {
    if (ownsStorage) await storage.close()
    throw error
  }
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL
  let redis: Redis | undefined
  try {
    if (redisUrl && api.rate) redis = await connectRedis(redisUrl)
  } catch (error) {
    if (ownsStorage) await storage.close()
    throw error
  }
  const serverOptions = apiServerOptions(options.timeouts)
  const trustProxy = api.http?.trustProxy
  const app = Fastify({
    logger: options.logger ?? false,
    ...serverOptions,
    ...(trustProxy !== undefined ? { trustProxy: trustProxyOption(trustProxy) } : {}),
    // Every route here reads its query string with parseQueryString; Fastify's own parse would be wasted work.
    routerOptions: { ...serverOptions.routerOptions, querystringParser: () => ({}) },
    schemaController: { compilersFactory: NO_SCHEMA_COMPILERS },
    // Closing: drainOnClose decides when idle connections close (its closeIdleConnections) and answers their requests.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
  })
  // Known methods route like any other, so a known path answers 405 with Allow to TRACE, PROPFIND, LOCK…
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method)
  }
  // Node's own answer to a missing Host is a bare 400 (see apiServerOptions), and it keeps the first of several.
  const singular = singularHeaders(api)
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      return sendProblem(request, reply, new ProblemError('bad_request', 'HTTP/1.1 requests need a Host header.'))
    }
    const repeated = findRepeatedHeader(request.raw.rawHeaders, singular)
    if (repeated !== null) {
      return sendProblem(
        request,
        reply,
        new ProblemError('bad_request', `The request has more than one ${repeated} header; send one.`),
      )
    }
  })
  app.server.on('connect', refuseTunnel)
  app.server.on('checkExpectation', refuseExpectation)
  if (ownsStorage) app.addHook('onClose', () => storage.close())
  if (redis) app.addHook('onClose', () => disconnectRedis(redis))
  const isDraining = drainOnClose(app, options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS)
  const checks: ReadinessCheck[] = [{ name: 'The database', check: () => storage.ping() }]
  if (redis) checks.push({ name: 'Redis', check: async () => void (await redis.ping()) })
  registerHealthRoutes(app, { isDraining, checks })
  handleErrors(app, api.limits)
  // Loaded only when the manifest asks for them. CORS first: its preflight answers count against no limit.
  if (api.http?.cors) {
    const { registerCors } = await import('../ops/register-cors.js')
    await registerCors(app, api.http.cors)
  }
  if (api.rate) {
    const { registerRateLimits } = await import('../ops/rate-limits.js')
    const redisKeyPrefix = options.redisKeyPrefix ?? process.env.REDIS_KEY_PREFIX
    await registerRateLimits(app, {
      service: api.rate,
      ...(redis ? { redis } : {}),
      ...(redisKeyPrefix ? { redisKeyPrefix } : {}),
    })
  }
  // Before the API plugin, whose routes inherit the hook.
  if (options.metrics !== false) countRequests(app, api.versions)
  await app.register(createApiPlugin(api), {
    storage,
    ...(options.cursorSecret !== undefined ? { cursorSecret: options.cursorSecret } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.timeouts?.jwksMs !== undefined ? { jwksTimeoutMs: options.timeouts.jwksMs } : {}),
    ...(options.timeouts?.hookMs !== undefined ? { hookTimeoutMs: options.timeouts.hookMs } : {}),
    ...(options.app !== undefined ? { app: options.app } : {}),
  })
  if (options.docs !== false) registerApiDocs(app, api.versions, api.guides ?? [])
  return app
}

/**
 * Fastify options that make every answer a problem, even those given before
 * routing (framework and parser errors), and that bound how long a client may
 * take. Use them when you mount `restmintApi` in an app of your own.
 */
export function apiServerOptions(timeouts: ServerTimeouts = {}): FastifyHttpOptions<Server> {
  const { requestMs, headersMs, keepAliveMs } = { ...DEFAULT_TIMEOUTS, ...timeouts }
  const headersTimeout = requestMs === 0 ? headersMs : Math.min(headersMs, requestMs)
  return {
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_LENGTH },
    http: {
      headersTimeout,
      // Node checks request and header deadlines on this period (30 s by default, too coarse for them).
      connectionsCheckingInterval: Math.max(1, Math.min(1_000, ...[requestMs, headersTimeout].filter((ms) => ms > 0))),
      // Answered by the onRequest hook instead, as a problem.
      requireHostHeader: false,
    },
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: answerClientError,
  }
}

/**
 * Fastify's `trustProxy` for the manifest's `http.trust_proxy`. A hop count
 * becomes the function proxy-addr makes of one (Fastify takes a number at run
 * time, but its types do not): trust the `hops` nearest addresses.
 */
function trustProxyOption(
  trustProxy: number | readonly string[],
): string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return [...trustProxy]
  return (_address, hop) => hop < trustProxy
}

/** How many times `name` (lowercase) appears in Node's raw header list (name, value, name, value…). */
/**
 * Headers a request may carry once, by lower-case name → as written in messages: Node keeps the first of
 * several Host or Authorization headers and joins Content-Types, so a second one would be read by one proxy
 * and ignored here (a valid credential hiding a bad one, or the other way round).
 */
function singularHeaders(api: ApiDefinition): ReadonlyMap<string, string> {
  const apiKeyHeaders = (api.auth?.schemes ?? []).flatMap((scheme) =>
    scheme.type === 'api_key' ? [scheme.header] : [],
  )
  return new Map(['Host', 'Authorization', 'Content-Type', ...apiKeyHeaders].map((name) => [name.toLowerCase(), name]))
}

/** The first header of `singular` that `rawHeaders` (name, value, name, value…) holds twice, as written, or null. */
function findRepeatedHeader(rawHeaders: readonly string[], singular: ReadonlyMap<string, string>): string | null {
  const seen = new Set<string>()
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase()
    if (!singular.has(name)) continue
    if (seen.has(name)) return singular.get(name)!
    seen.add(name)
  }
  return null
}
