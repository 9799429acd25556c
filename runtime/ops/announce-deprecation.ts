import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ApiDeprecation } from '../contract/define-api.js'
import { requestedPath } from '../http/request-path.js'

/**
 * Makes every response of a deprecated version say so, errors included: the
 * `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link` headers (RFC 8288:
 * the guide, rel="deprecation", and the same path in the successor version,
 * rel="successor-version"), and `meta.deprecated`/`meta.sunset` in every JSON
 * body (an extension member of problem details, RFC 9457 section 3.2). Sent
 * from the moment the manifest declares it, before the date too: RFC 9745
 * lets the date lie in the future, and the answer then does not depend on the
 * clock. Add it to the version's Fastify instance before its routes and error handlers.
 */
export function announceDeprecation(app: FastifyInstance, prefix: string, deprecation: ApiDeprecation): void {
  // https://www.rfc-editor.org/rfc/rfc9745#section-2.1: an sf-date, seconds since the epoch.
  const deprecationValue = `@${Date.parse(deprecation.deprecated) / 1000}`
  // https://www.rfc-editor.org/rfc/rfc8594#section-3: an HTTP-date, which toUTCString writes as IMF-fixdate.
  const sunsetValue = deprecation.sunset === null ? null : new Date(Date.parse(deprecation.sunset)).toUTCString()
  const guideLink = `<${deprecation.guide}>; rel="deprecation"; type="text/html"`
  const meta = { deprecated: true, sunset: deprecation.sunset }
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    reply.header('deprecation', deprecationValue)
    if (sunsetValue !== null) reply.header('sunset', sunsetValue)
    const successor = successorOf(request, prefix, deprecation)
    reply.header(
      'link',
      successor === null ? guideLink : `${guideLink}, <${escapeUriReference(successor)}>; rel="successor-version"`,
    )
    done(null, payload)
  })
  app.addHook('preSerialization', (_request: FastifyRequest, _reply: FastifyReply, payload: unknown, done) => {
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return done(null, payload)
    const body = payload as { meta?: object }
    done(null, { ...body, meta: { ...body.meta, ...meta } })
  })
}

/** The same resource in the successor version: the same path under its prefix, unless the route moved (or went). */
function successorOf(request: FastifyRequest, prefix: string, deprecation: ApiDeprecation): string | null {
  const path = requestedPath(request.url).slice(prefix.length)
  const routes = deprecation.successorRoutes ?? {}
  const route = request.routeOptions.url?.slice(prefix.length)
  const params = request.params as Record<string, string>
  // A 404 or 405 matched no route: a path shaped like a moved one (`DELETE /v1/authors`) moved with it.
  const [moved, values] = route === undefined ? movedRouteOf(path, routes) : [routes[route], params]
  if (moved === undefined) return deprecation.successorPrefix + path
  if (moved === null) return null
  return (
    deprecation.successorPrefix + moved.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))
  )
}

/** The moved route `path` has the shape of, and its parameters (decoded); undefined when none. */
function movedRouteOf(
  path: string,
  routes: Readonly<Record<string, string | null>>,
): [string | null | undefined, Record<string, string>] {
  const segments = path.split('/')
  for (const [route, successor] of Object.entries(routes)) {
    const parts = route.split('/')
    if (parts.length !== segments.length) continue
    const params: Record<string, string> = {}
    const matches = parts.every((part, index) => {
      const segment = segments[index]!
      if (!part.startsWith(':')) return part === segment
      params[part.slice(1)] = safeDecode(segment)
      return segment !== ''
    })
    if (matches) return [successor, params]
  }
  return [undefined, {}]
}

/** A path segment decoded, or as sent when it is not valid percent-encoding. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** Percent-encodes what may not stand in a URI reference, so a path cannot close the `<…>` of a link. */
function escapeUriReference(path: string): string {
  // A moved collection's successor keeps to the old parent's records with a query (`/comments?post_id=1`).
  return path.replace(/[^\w\-.~!$&'()*+,;=:@/%?]/gu, (character) => encodeURIComponent(character))
}
