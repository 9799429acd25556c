import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Counter, Registry } from 'prom-client'
import type { ApiVersion } from '../contract/define-api.js'
import { requestedPath } from '../http/request-path.js'

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
  // Counted here, and prom-client (~0.1 s to load, with @opentelemetry/api) imported on the first scrape.
  const counts = new Map<string, { labels: RequestLabels; count: number }>()
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url
    const labels = {
      version: versionOf(request, route, versions),
      route: route ?? 'unmatched',
      status: reply.statusCode,
    }
    const key = `${labels.version} ${labels.route} ${labels.status}`
    const counted = counts.get(key)
    if (counted === undefined) counts.set(key, { labels, count: 1 })
    else counted.count++
    done()
  })
  let exposition: Promise<{ registry: Registry; requests: Counter<keyof RequestLabels> }> | undefined
  app.get('/metrics', async (_request, reply) => {
    exposition ??= import('prom-client').then(({ Counter, Registry }) => {
      const registry = new Registry()
      const requests = new Counter({
        name: 'restmint_http_requests_total',
        help: 'HTTP requests answered, by API version, route pattern and status code.',
        labelNames: ['version', 'route', 'status'] as const,
        registers: [registry],
      })
      return { registry, requests }
    })
    const { registry, requests } = await exposition
    requests.reset()
    for (const { labels, count } of counts.values()) requests.inc(labels, count)
    return reply.type(registry.contentType).send(await registry.metrics())
  })
}

interface RequestLabels {
  readonly version: string
  readonly route: string
  readonly status: number
}

function versionOf(request: FastifyRequest, route: string | undefined, versions: readonly ApiVersion[]): string {
  const path = route ?? requestedPath(request.url)
  const version = versions.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))
  return version?.name ?? 'none'
}
