import type { FastifyRequest } from 'fastify'

/**
 * The path of the route that matched, with its parameters filled in
 * (`/v1/orders/3/items`): what Location and links are built from. Never the
 * request target as sent, which may be absolute-form
 * (`POST http://evil.example/v1/authors`) and must not leak into responses.
 */
export function routePath(request: FastifyRequest): string {
  const params = request.params as Record<string, string>
  return request.routeOptions.url!.replace(/:(\w+)/g, (_, name: string) => params[name]!)
}

/** The path the client asked for, without scheme, host or query string: a problem's `instance`. */
export function requestedPath(url: string): string {
  const path = url.replace(ABSOLUTE_FORM, '').split('?', 1)[0]!
  return path.startsWith('/') ? path : `/${path}`
}

/** The query string of a request target, without the `?`. */
export function requestSearch(url: string): string {
  const search = url.indexOf('?')
  return search === -1 ? '' : url.slice(search + 1)
}

// https://www.rfc-editor.org/rfc/rfc9112#section-3.2.2
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/
