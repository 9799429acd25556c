import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { createApiPlugin } from './create-api-plugin.js'
import type { ApiDefinition } from './define-api.js'
import { handleErrors } from './http/handle-errors.js'
import { seedSampleRows } from './seed-sample-rows.js'
import { createStorage } from './storage/create-storage.js'
import type { Storage } from './storage/storage.js'

export interface ServerOptions {
  /** `sqlite:./file.db`, `sqlite::memory:` (the default) or `postgres://…`. Ignored when `storage` is given. */
  readonly db?: string
  /** PostgreSQL schema holding every table (default `public`); ignored for SQLite and when `storage` is given. */
  readonly schema?: string
  /** A storage you opened yourself; the server prepares it but does not close it. */
  readonly storage?: Storage
  /** Insert a few sample rows into empty tables (the example server does). */
  readonly seed?: boolean
  /** Fastify's logger option. Default: off. */
  readonly logger?: FastifyServerOptions['logger']
  /** Serve the API reference at /docs. Default: true. */
  readonly docs?: boolean
}

/**
 * A ready Fastify instance serving the API. Prepares the database first:
 * creates missing tables, and refuses to start (SchemaMismatchError) when
 * existing tables disagree with the manifest.
 */
export async function buildApiServer(api: ApiDefinition, options: ServerOptions = {}): Promise<FastifyInstance> {
  const storage = options.storage ?? createStorage(options.db ?? 'sqlite::memory:', api.tables, { schema: options.schema })
  const ownsStorage = !options.storage
  try {
    await storage.prepare()
    if (options.seed) await seedSampleRows(storage, api.tables)
  } catch (error) {
    if (ownsStorage) await storage.close()
    throw error
  }
  const app = Fastify({ logger: options.logger ?? false })
  if (ownsStorage) app.addHook('onClose', () => storage.close())
  handleErrors(app, api.limits)
  await app.register(createApiPlugin(api), { storage })
  const latest = api.versions.at(-1)
  if (options.docs !== false && latest) {
    await app.register(swagger, { mode: 'static', specification: { document: latest.openapi as never } })
    await app.register(swaggerUi, { routePrefix: '/docs' })
  }
  await app.ready()
  return app
}
