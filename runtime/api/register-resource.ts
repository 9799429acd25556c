import type { HTTPMethods } from 'fastify'
import type { AccessOperation } from '../contract/access-rule.js'
import { listResourceRoutes, type RegisterResource, type ResourceRoute } from '../contract/resource-routes.js'
import { DELETED_QUERY_NAME } from '../contract/query-rules.js'
import { RESTORATIONS, type TableDefinition } from '../contract/table-definition.js'
import type { Validator } from '../contract/validator.js'
import { identityTranslation } from '../contract/version-translation.js'
import { planIncludeNames } from '../include/include-relations.js'
import { queryNamesOf } from '../query/read-query.js'
import { aggregateRecords } from './aggregate-handlers.js'
import { createRecord, listRecords } from './collection-handlers.js'
import { readRecord, removeRecord, replaceRecord, restoreRecord, updateRecord } from './item-handlers.js'
import type { ApiServices, RouteContext, RouteHandler } from './route-context.js'
import { answerOptions } from './answer-options.js'
import { registerLinks } from './register-links.js'

/** One method of a route: what answers it, and the access operation it is. */
interface RouteMethod {
  readonly handle: RouteHandler
  readonly operation: AccessOperation
}

/** The methods of each route kind (HEAD is GET's; OPTIONS is answered by answerOptions). */
const METHODS: Readonly<Record<ResourceRoute['kind'], Readonly<Record<string, RouteMethod>>>> = {
  collection: { GET: { handle: listRecords, operation: 'list' }, POST: { handle: createRecord, operation: 'create' } },
  item: {
    GET: { handle: readRecord, operation: 'read' },
    PUT: { handle: replaceRecord, operation: 'update' },
    PATCH: { handle: updateRecord, operation: 'update' },
    DELETE: { handle: removeRecord, operation: 'delete' },
  },
  // Reads the records the list would: the list's access rule decides who may, and which rows count.
  aggregates: { GET: { handle: aggregateRecords, operation: 'list' } },
}

/**
 * Registers every route of a resource, at the paths listResourceRoutes gives
 * (the ones the OpenAPI document lists): one Fastify route per path taking
 * each of its methods, every other method answered 405. One route rather than
 * one per method: Fastify's cost is per route, and a 100-resource server
 * starts ~0.15 s sooner. `bodyLimit` bounds every body the path takes.
 * Everything a handler needs besides the request (the version's translation,
 * its include names, the query names) is worked out here, once per route.
 */
export function createResourceRegistrar(api: ApiServices): RegisterResource {
  return (app, resource) => {
    const { table, rules, bodies, nestedUnder, requireIfMatch, rate } = resource
    const translation = resource.translation ?? identityTranslation(table, api.tables)
    const includeNames = planIncludeNames(translation, rules.includes)
    // Paths and messages use the version's names, which a translated version may not share with the storage.
    const parentNames = nestedUnder && (nestedUnder.parentNames ?? nestedUnder.parent)
    const nested =
      nestedUnder && parentNames
        ? { parentResource: parentNames.resource, parentKey: nestedUnder.parentKey, idParam: nestedUnder.idParam }
        : null
    for (const route of listResourceRoutes(translation.view.resource, nested, rules.aggregate !== undefined)) {
      const parentLink =
        route.nestedUnder && nestedUnder && parentNames
          ? {
              parent: nestedUnder.parent,
              parentSingular: parentNames.singular,
              param: nestedUnder.parentKey,
              column: translation.columnOf(nestedUnder.parentKey),
            }
          : null
      const context: RouteContext = {
        api,
        table,
        translation,
        includeNames,
        query: {
          rules,
          // The version's own view decides: an older, frozen version may predate soft delete (add_soft_delete).
          known: [
            ...queryNamesOf(rules, route.kind),
            ...(translation.view.softDelete === true ? [DELETED_QUERY_NAME] : []),
          ],
          table: translation.view,
          limits: api.limits,
          cursors: api.cursors,
          tables: api.tables,
        },
        parentLink,
        idParam: route.idParam,
        requireIfMatch: requireIfMatch === true,
        prefix: app.prefix,
        bodies: route.nestedUnder
          ? {
              create: requireNestedBody(bodies.nestedCreateBody, table),
              replace: requireNestedBody(bodies.nestedReplaceBody, table),
              update: requireNestedBody(bodies.nestedUpdateBody, table),
            }
          : { create: bodies.createBody, replace: bodies.replaceBody, update: bodies.updateBody },
      }
      // A soft-deleted record comes back through its `restorations` (no verb in the path); only at the top
      // level, which keeps the nesting at two levels.
      if (translation.view.softDelete === true && route.kind === 'item' && !route.nestedUnder) {
        app.route({
          method: ['POST', 'OPTIONS'],
          url: `${route.url}/${RESTORATIONS}`,
          bodyLimit: api.limits.bodyMaxBytes,
          config: {
            access: { table: table.name, operations: { POST: 'deleted' } },
            ...(rate ? { ratePolicy: rate } : {}),
          },
          handler: (request, reply) =>
            request.method === 'OPTIONS' ? answerOptions(app, request, reply) : restoreRecord(context, request, reply),
        })
      }
      const methods = METHODS[route.kind]
      const operations: Record<string, AccessOperation> = { HEAD: methods.GET!.operation }
      for (const [method, { operation }] of Object.entries(methods)) operations[method] = operation
      app.route({
        // HEAD is declared rather than left to Fastify, which would add a second route per path for it;
        // Node sends no body in answer to HEAD, only the headers GET's answer has.
        method: ['HEAD', ...(Object.keys(methods) as HTTPMethods[]), 'OPTIONS'],
        url: route.url,
        bodyLimit: api.limits.bodyMaxBytes,
        config: { access: { table: table.name, operations }, ...(rate ? { ratePolicy: rate } : {}) },
        handler: (request, reply) => {
          if (request.method === 'OPTIONS') return answerOptions(app, request, reply)
          return methods[request.method === 'HEAD' ? 'GET' : request.method]!.handle(context, request, reply)
        },
      })
    }
    if (resource.links) registerLinks(app, api, resource, translation.view.resource)
  }
}

function requireNestedBody(validator: Validator<object> | undefined, table: TableDefinition): Validator<object> {
  if (validator === undefined) throw new Error(`internal error: no nested body validators for ${table.resource}`)
  return validator
}
