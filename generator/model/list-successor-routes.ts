import type { RouteModel, VersionModel } from './api-model.js'
import { NameTrace } from './name-trace.js'

/**
 * The routes of `older` whose successor in `newer` (the next newer version)
 * is not the same path under its prefix: a renamed resource's
 * (`/authors/:id` → `/writers/:id`), a re-rooted one's nested routes
 * (`/books/:book_id/comments` → `/comments?book_id=:book_id`,
 * `/books/:book_id/comments/:comment_id` → `/comments/:comment_id`), and a
 * removed one's, which have none (null). The same mapping as the migration
 * guide's endpoints (NameTrace); successor paths name the older route's
 * parameters, which the request fills in.
 */
export function listSuccessorRoutes(older: VersionModel, newer: VersionModel): Record<string, string | null> {
  const trace = new NameTrace(older, newer)
  const successors: Record<string, string | null> = {}
  for (const resource of older.resources) {
    const renamed = trace.resource(resource.name)
    for (const route of resource.routes) {
      const successor = renamed && trace.successorRoute(resource, renamed, route)
      const path = successor && toOlderParameters(successor.route.path + successor.query, successor.route, route)
      if (path !== route.url) successors[route.url] = path
    }
  }
  return successors
}

/** `path` of the newer `successor` in Fastify form, its `{params}` renamed to the ones the older `route` fills. */
function toOlderParameters(path: string, successor: RouteModel, route: RouteModel): string {
  const renamed = new Map<string, string>()
  if (successor.idParam !== null && route.idParam !== null) renamed.set(successor.idParam, route.idParam)
  if (successor.nestedUnder && route.nestedUnder)
    renamed.set(successor.nestedUnder.parentKey, route.nestedUnder.parentKey)
  return path.replace(/\{([^}]+)\}/g, (_, param: string) => `:${renamed.get(param) ?? param}`)
}
