import type { FastifyInstance, HTTPMethods } from 'fastify'
import type { AccessOperation } from '../contract/access-rule.js'
import { listLinkRoutes } from '../contract/link-routes.js'
import type { ResourceRoutes } from '../contract/resource-routes.js'
import { identityTranslation } from '../contract/version-translation.js'
import { planIncludeNames } from '../include/include-relations.js'
import { queryNamesOf } from '../query/read-query.js'
import { answerOptions } from './answer-options.js'
import { listRecords } from './collection-handlers.js'
import { createLink, removeLink } from './link-handlers.js'
import type { ApiServices, LinkContext, RouteContext, RouteHandler } from './route-context.js'

/**
 * Registers the routes of each many-to-many relation of a resource
 * (listLinkRoutes): GET lists the linked target records as the target's own
 * collection does (its rules: filters, sort, pages, includes), POST links
 * one, DELETE unlinks one. Access is the join's operation (list, create,
 * delete); the source must be readable, and only readable targets are
 * listed or linked.
 */
export function registerLinks(app: FastifyInstance, api: ApiServices, resource: ResourceRoutes, path: string): void {
  for (const [name, { body, rules }] of Object.entries(resource.links ?? {})) {
    const relation = resource.table.relations?.find((candidate) => candidate.name === name)
    const through = relation?.through
    const join = through && api.tables.get(through.table)
    const target = relation && api.tables.get(relation.table)
    if (!relation || !through || !join || !target) {
      throw new Error(`internal error: ${resource.table.name} has no many-to-many relation ${name}`)
    }
    const link: LinkContext = {
      source: resource.table,
      sourceParam: relation.column,
      join,
      targetParam: through.targetColumn,
      target,
    }
    const listTranslation = identityTranslation(target, api.tables)
    const base = {
      api,
      link,
      idParam: null,
      requireIfMatch: false,
      prefix: app.prefix,
      bodies: { create: body, replace: body, update: body },
    }
    const list: RouteContext = {
      ...base,
      table: target,
      translation: listTranslation,
      includeNames: planIncludeNames(listTranslation, rules.includes),
      query: {
        rules,
        known: queryNamesOf(rules, 'collection'),
        table: target,
        limits: api.limits,
        cursors: api.cursors,
        tables: api.tables,
      },
      parentLink: null,
    }
    const joinTranslation = identityTranslation(join, api.tables)
    const write: RouteContext = {
      ...base,
      table: join,
      translation: joinTranslation,
      includeNames: planIncludeNames(joinTranslation, []),
      query: { rules, known: [], table: join, limits: api.limits, cursors: api.cursors },
      // The source is the parent of a link: resolveParent finds it (404) and readBody says its key comes from the path.
      parentLink: {
        parent: resource.table,
        parentSingular: resource.table.singular,
        param: link.sourceParam,
        column: link.sourceParam,
      },
    }
    const [collection, item] = listLinkRoutes(path, name, link.sourceParam, link.targetParam)
    const handlers: Record<string, readonly [RouteHandler, RouteContext, AccessOperation]>[] = [
      { GET: [listRecords, list, 'list'], POST: [createLink, write, 'create'] },
      { DELETE: [removeLink, write, 'delete'] },
    ]
    for (const [index, route] of [collection!, item!].entries()) {
      const methods = handlers[index]!
      const operations: Record<string, AccessOperation> = {}
      for (const [method, [, , operation]] of Object.entries(methods)) operations[method] = operation
      if (methods.GET) operations.HEAD = 'list'
      app.route({
        method: [...(methods.GET ? ['HEAD'] : []), ...Object.keys(methods), 'OPTIONS'] as HTTPMethods[],
        url: route.url,
        bodyLimit: api.limits.bodyMaxBytes,
        config: { access: { table: join.name, operations } },
        handler: (request, reply) => {
          if (request.method === 'OPTIONS') return answerOptions(app, request, reply)
          const [handle, context] = methods[request.method === 'HEAD' ? 'GET' : request.method]!
          return handle(context, request, reply)
        },
      })
    }
  }
}
