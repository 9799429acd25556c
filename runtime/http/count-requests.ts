import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Counter, Registry } from 'prom-client'
import type { ApiVersion } from '../define-api.js'
import { requestedPath } from './request-path.js'

/**
 * Counts every answered request in `restmint_http_requests_total{version,
 * route, status}` and serves the count at `GET /metrics` (Prometheus text
 * format), so a team sees when an old version's traffic reaches zero. `route`
 * is the route pattern (`/v1/posts/:id`), never the URL, and a path no route
 * serves is `unmatched`, so the number of series stays bounded; `version` is
 * `none` outside every version prefix. The registry belongs to this server,
 * so two servers in one process do not share or clash over counters.
 */
export function countRequests(app: FastifyInstance, versions: readonly ApiVersion[]): void {
  const registry = new Registry()
  const requests = new Counter({
    name: 'restmint_http_requests_total',
    help: 'HTTP requests answered, by API version, route pattern and status code.',
    labelNames: ['version', 'route', 'status'] as const,
    registers: [registry],
  })
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url
    requests.inc({
      version: versionOf(request, route, versions),
      route: route ?? 'unmatched',
      status: reply.statusCode,
    })
    done()
  })
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()))
}

function versionOf(request: FastifyRequest, route: string | undefined, versions: readonly ApiVersion[]): string {
  const path = route ?? requestedPath(request.url)
  const version = versions.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))
  return version?.name ?? 'none'
}
