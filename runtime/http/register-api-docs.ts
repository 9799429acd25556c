import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'

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
export function registerApiDocs(app: FastifyInstance, loadDocument: () => Promise<object>): void {
  let docs: Promise<FastifyInstance> | undefined
  const answer = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    docs ??= loadDocument().then(buildDocsServer)
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

async function buildDocsServer(document: object): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ])
  const docs = Fastify()
  await docs.register(swagger, { mode: 'static', specification: { document: document as never } })
  await docs.register(swaggerUi, { routePrefix: '/docs' })
  await docs.ready()
  return docs
}
