import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { ApiGuide, ApiVersion } from '../contract/define-api.js'

/** Hop-by-hop and framing headers: the outer reply sets its own. */
const HEADERS_NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date'])

/**
 * Serves the API reference page (@fastify/swagger-ui over @fastify/swagger in
 * static mode) at /docs. Both plugins, with yaml, @fastify/static and their
 * routes, cost a 100-resource server ~0.1 s at start-up, so they are loaded
 * with the document into an instance of their own on the first /docs request, and every
 * request under /docs is passed to it. What it does not serve (404) goes to
 * `app`'s not-found handler, as when the plugins were registered on `app`.
 */
export function registerApiDocs(
  app: FastifyInstance,
  versions: readonly ApiVersion[],
  guides: readonly ApiGuide[],
): void {
  if (versions.length === 0) return
  for (const guide of guides) registerGuide(app, guide)
  let docs: Promise<FastifyInstance> | undefined
  const answer = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    docs ??= buildDocsServer(versions)
    // GET for HEAD too: Fastify's HEAD route of `app` drops the body after sizing Content-Length from it.
    const response = await (await docs).inject({ method: 'GET', url: request.url, headers: request.headers })
    if (response.statusCode === 404) {
      reply.callNotFound()
      return reply
    }
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined && !HEADERS_NOT_FORWARDED.has(name)) reply.header(name, value)
    }
    // An empty Buffer would still be labelled application/octet-stream.
    return reply.code(response.statusCode).send(response.rawPayload.length > 0 ? response.rawPayload : undefined)
  }
  app.get('/docs', answer)
  app.get('/docs/*', answer)
  app.addHook('onClose', async () => {
    if (docs) await (await docs).close()
  })
}

/**
 * Sends a migration guide as the HTML page it is generated as: the
 * `Link: <guide>; rel="deprecation"; type="text/html"` of a deprecated
 * version's responses promises that type, and a browser shows it as is.
 */
function registerGuide(app: FastifyInstance, guide: ApiGuide): void {
  let page: Promise<string> | undefined
  app.get(guide.path, async (_request, reply) => {
    page ??= guide.page().then((module) => module.page)
    return reply.type('text/html; charset=utf-8').send(await page)
  })
}

/**
 * With several versions, each document is served at
 * `/docs/<version>/openapi.json` and the page's top bar chooses among them,
 * the newest current version first shown; a deprecated version's document
 * says so in its description, with its sunset and a link to the migration
 * guide. `/docs/json` is the version first shown.
 */
async function buildDocsServer(versions: readonly ApiVersion[]): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }, documents] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
    Promise.all(versions.map(async (version) => servedDocument((await version.openapi()).default))),
  ])
  const current = versions.filter((version) => version.deprecation === undefined)
  const shown = versions.indexOf(current.at(-1) ?? versions.at(-1)!)
  const docs = Fastify()
  const urls = versions.map((version, index) => {
    const url = `/docs/${version.name}/openapi.json`
    docs.get(url, async () => documents[index])
    return { url, name: describeVersion(version) }
  })
  await docs.register(swagger, { mode: 'static', specification: { document: documents[shown] as never } })
  await docs.register(swaggerUi, {
    routePrefix: '/docs',
    // swagger-ui's top bar lists `urls` and opens `urls.primaryName`.
    uiConfig: versions.length > 1 ? ({ urls, 'urls.primaryName': describeVersion(versions[shown]!) } as object) : {},
  })
  await docs.ready()
  return docs
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
