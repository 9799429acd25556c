import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AccessRequest } from '../contract/access-rule.js'
import { OPEN_GRANT, type AccessControl, type AccessGrant } from './authorize-request.js'

/** What a route's config tells the authorization preHandler: the table, and the operation each method is. */
export interface RouteAccess {
  readonly table: string
  readonly operations: Readonly<Partial<Record<string, AccessRequest>>>
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by registerResource on every resource route; methods it does not list (OPTIONS) need no grant. */
    access?: RouteAccess
  }
}

const grants = new WeakMap<FastifyRequest, AccessGrant>()

/**
 * Authorizes every request to a route whose config names its `access`, in a
 * `preHandler` (after the rate limits' own, registered before the API): the
 * caller must pass the operation's rule, and the grant says which rows it may
 * touch (grantOf). Without `auth:` in the manifest nothing is registered and
 * every grant is the open one.
 */
export function authorizeRoutes(app: FastifyInstance, access: AccessControl): void {
  if (!access.enabled) return
  app.addHook('preHandler', async (request) => {
    const route = request.routeOptions.config.access
    const operation = route?.operations[request.method]
    if (route && operation) grants.set(request, await access.authorize(request, route.table, operation))
  })
}

/** The grant authorizeRoutes gave the request; the open grant when the API has no access rules. */
export function grantOf(request: FastifyRequest): AccessGrant {
  return grants.get(request) ?? OPEN_GRANT
}
