import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { ApiVersion } from '../define-api.js'

/**
 * The API reference at /docs. With several versions, each document is served
 * at `/docs/<version>/openapi.json` and the page's top bar chooses among them,
 * the newest current version first shown; a deprecated version's document says
 * so in its description, with its sunset and a link to the migration guide.
 * `/docs/json` is the version first shown.
 */
export async function serveApiDocs(app: FastifyInstance, versions: readonly ApiVersion[]): Promise<void> {
  const shown = versions.filter((version) => version.deprecation === undefined).at(-1) ?? versions.at(-1)
  if (shown === undefined) return
  const urls = versions.map((version) => {
    const url = `/docs/${version.name}/openapi.json`
    const document = servedDocument(version.openapi)
    app.get(url, async () => document)
    return { url, name: describeVersion(version) }
  })
  await app.register(swagger, { mode: 'static', specification: { document: servedDocument(shown.openapi) as never } })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // swagger-ui's top bar lists `urls` and opens `urls.primaryName`.
    uiConfig: versions.length > 1 ? ({ urls, 'urls.primaryName': describeVersion(shown) } as object) : {},
  })
}

function describeVersion(version: ApiVersion): string {
  return version.deprecation ? `${version.name} (deprecated)` : version.name
}

/**
 * The document /docs shows: "Try it out" sends requests to the server that
 * served the page, whatever host and port it was opened at (a relative server
 * URL), before the manifest's `base_url`.
 */
function servedDocument(document: object): object {
  const servers = (document as { servers?: object[] }).servers ?? []
  return { ...document, servers: [{ url: '/', description: 'This server' }, ...servers] }
}
