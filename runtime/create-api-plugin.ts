import type { FastifyPluginAsync } from 'fastify'
import type { ApiDefinition } from './define-api.js'
import { handleErrors } from './http/handle-errors.js'
import { MERGE_PATCH } from './http/media-types.js'
import { createRouteFactory } from './http/route-factory.js'
import type { Storage } from './storage/storage.js'

export interface ApiPluginOptions {
  /** An opened storage for this API's tables; `prepare()` it before serving. */
  readonly storage: Storage
}


/**
 * The API as a Fastify plugin: every version under its prefix, with RFC 9457
 * errors. Encapsulated, so its error and not-found handlers stay inside it.
 */
export function createApiPlugin(api: ApiDefinition): FastifyPluginAsync<ApiPluginOptions> {
  return async (app, options) => {
    const routes = createRouteFactory(options.storage, api.limits, api.tables)
    for (const version of api.versions) {
      await app.register(
        async (scope) => {
          // Bodies are JSON only: anything else (Fastify also parses text/plain) is a 415.
          scope.removeContentTypeParser('text/plain')
          scope.addContentTypeParser(MERGE_PATCH, { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'))
          handleErrors(scope, api.limits)
          version.register(scope, routes)
        },
        { prefix: version.prefix },
      )
    }
  }
}
