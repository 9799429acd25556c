import type { HTTPMethods } from 'fastify'
import { listResourceRoutes, type RegisterResource } from '../contract/resource-routes.js'
import type { TableDefinition } from '../contract/table-definition.js'
import type { Validator } from '../contract/validator.js'
import type { EndpointHandler, RouteFactory } from './route-factory.js'

/**
 * Registers every route of a resource, at the paths listResourceRoutes gives
 * (the ones the OpenAPI document lists): one Fastify route per path taking
 * each of its methods, every other method answered 405. One route rather than
 * one per method: Fastify's cost is per route, and a 100-resource server
 * starts ~0.15 s sooner. `bodyLimit` bounds every body the path takes.
 */
export function createResourceRegistrar(routes: RouteFactory, bodyLimit: number): RegisterResource {
  return (app, { table, rules, bodies, nestedUnder, translation, requireIfMatch, rate }) => {
    // Paths and messages use the version's names, which a translated version may not share with the storage.
    const parentNames = nestedUnder && (nestedUnder.parentNames ?? nestedUnder.parent)
    const nested =
      nestedUnder && parentNames
        ? { parentResource: parentNames.resource, parentKey: nestedUnder.parentKey, idParam: nestedUnder.idParam }
        : null
    for (const route of listResourceRoutes((translation?.view ?? table).resource, nested)) {
      const scope =
        route.nestedUnder && nestedUnder && parentNames
          ? {
              scope: {
                parent: nestedUnder.parent,
                parentSingular: parentNames.singular,
                param: nestedUnder.parentKey,
                column: translation?.columnOf(nestedUnder.parentKey) ?? nestedUnder.parentKey,
              },
            }
          : {}
      const edge = translation ? { translation } : {}
      const body = (plain: Validator<object>, forNested: Validator<object> | undefined) =>
        route.nestedUnder ? requireNestedBody(forNested, table) : plain
      const handlers: Partial<Record<HTTPMethods, EndpointHandler>> = {}
      if (route.idParam === null) {
        handlers.GET = routes.list(app, { table, ...scope, ...edge, rules })
        handlers.POST = routes.create({
          table,
          ...scope,
          ...edge,
          body: body(bodies.createBody, bodies.nestedCreateBody),
        })
      } else {
        const item = { table, ...scope, ...edge, idParam: route.idParam, requireIfMatch: requireIfMatch === true }
        handlers.GET = routes.read(app, { ...item, rules })
        handlers.PUT = routes.replace({ ...item, body: body(bodies.replaceBody, bodies.nestedReplaceBody) })
        handlers.PATCH = routes.update({ ...item, body: body(bodies.updateBody, bodies.nestedUpdateBody) })
        handlers.DELETE = routes.remove(item)
      }
      handlers.OPTIONS = routes.allow(app)
      app.route({
        // HEAD is declared rather than left to Fastify, which would add a second route per path for it;
        // Node sends no body in answer to HEAD, only the headers GET's answer has.
        method: ['HEAD', ...(Object.keys(handlers) as HTTPMethods[])],
        url: route.url,
        bodyLimit,
        ...(rate ? { config: { ratePolicy: rate } } : {}),
        handler: (request, reply) =>
          handlers[request.method === 'HEAD' ? 'GET' : (request.method as HTTPMethods)]!(request, reply),
      })
    }
  }
}

function requireNestedBody(validator: Validator<object> | undefined, table: TableDefinition): Validator<object> {
  if (validator === undefined) throw new Error(`internal error: no nested body validators for ${table.resource}`)
  return validator
}
