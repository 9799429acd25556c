import type { ResourceModel, RouteModel, VersionModel } from './api-model.js'

/**
 * The routes of `older` whose successor in `newer` (the next newer version)
 * is not the same path under its prefix: a renamed resource's
 * (`/authors/:id` → `/writers/:id`), a re-rooted one's nested routes
 * (`/books/:book_id/comments/:comment_id` → `/comments/:comment_id`), and a
 * removed one's, which have none (null). Successor paths name the older
 * route's parameters, which the request fills in.
 */
export function listSuccessorRoutes(older: VersionModel, newer: VersionModel): Record<string, string | null> {
  const newerNameOf = new Map(
    newer.changes.flatMap((change) => (change.kind === 'rename_resource' ? [[change.from, change.to] as const] : [])),
  )
  const successors: Record<string, string | null> = {}
  for (const resource of older.resources) {
    const name = newerNameOf.get(resource.name) ?? resource.name
    const successor = newer.resources.find((candidate) => candidate.name === name)
    for (const route of resource.routes) {
      const path = successor ? successorPath(route, successor) : null
      if (path !== route.url) successors[route.url] = path
    }
  }
  return successors
}

/** The successor's route of the same kind, nested alike when it still is, else top-level; in Fastify form. */
function successorPath(route: RouteModel, successor: ResourceModel): string {
  const nested = route.nestedUnder !== null
  const match =
    successor.routes.find(
      (candidate) => candidate.kind === route.kind && (candidate.nestedUnder !== null) === nested,
    ) ?? successor.routes.find((candidate) => candidate.kind === route.kind && candidate.nestedUnder === null)!
  const renamed = new Map<string, string>()
  if (match.idParam !== null && route.idParam !== null) renamed.set(match.idParam, route.idParam)
  if (match.nestedUnder && route.nestedUnder) renamed.set(match.nestedUnder.parentKey, route.nestedUnder.parentKey)
  return match.path.replace(/\{([^}]+)\}/g, (_, param: string) => `:${renamed.get(param) ?? param}`)
}
