import type { FastifyCorsOptions } from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import type { ApiCors } from '../contract/define-api.js'
import { addVary } from '../http/add-vary.js'

/** Every method the generated routes take. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** Response headers a browser script may read: the ones the API's clients act on. */
export const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Link',
  'Deprecation',
  'Sunset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
]

/**
 * CORS with @fastify/cors for the configured origins. Requests without an
 * `Origin` are not CORS requests and pass untouched, and an `OPTIONS` without
 * `Access-Control-Request-Method` is not a preflight: it gets the routes' own
 * answer (204 with `Allow`). A preflight is answered before any other hook
 * runs, so it counts against no rate limit and needs no credentials.
 */
export async function registerCors(app: FastifyInstance, cors: ApiCors): Promise<void> {
  const options: FastifyCorsOptions = {
    origin: cors.origins.includes('*') ? '*' : [...cors.origins],
    methods: METHODS,
    allowedHeaders: [...cors.allowedHeaders],
    exposedHeaders: EXPOSED_HEADERS,
    ...(cors.maxAgeSeconds !== undefined ? { maxAge: cors.maxAgeSeconds } : {}),
  }
  // Every answer depends on Origin, also those to requests without one: a shared cache must not give
  // an answer without Access-Control-Allow-Origin to a browser that sends one.
  app.addHook('onRequest', async (_request, reply) => addVary(reply, 'Origin'))
  // Imported here, not at the top: bundled by serve, it would load for every API (see registerAuthentication).
  const { default: fastifyCors } = await import('@fastify/cors')
  await app.register(fastifyCors, {
    delegator: (request, callback) => {
      if (request.headers.origin === undefined) return callback(null, { origin: false })
      const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined
      callback(null, preflight ? options : { ...options, preflight: false })
    },
  })
}
