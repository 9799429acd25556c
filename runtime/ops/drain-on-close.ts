import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { RETRY_AFTER_SECONDS, sendProblem } from '../problems/handle-errors.js'
import { isHealthRoute } from './health-routes.js'
import { ProblemError } from '../problems/problem-error.js'

/**
 * Makes `app.close()` a graceful shutdown bounded by `timeoutMs`. Fastify
 * marks the routes closed and calls Node's `server.close()`, which stops
 * accepting connections and closes idle keep-alive ones; this adds the rest:
 * - connections that have not sent a byte are closed too (Node counts them as
 *   busy: browsers open such connections ahead of need);
 * - requests in flight finish, their answers with `Connection: close`, so no
 *   keep-alive connection outlives its last answer;
 * - a request arriving meanwhile on a connection still open is answered 503
 *   problem+json with `Retry-After` (in place of Fastify's `return503OnClosing`
 *   answer, which is not problem+json), health checks excepted;
 * - after `timeoutMs`, connections still open are closed, requests in
 *   flight included, so close() resolves and onClose hooks (closing the
 *   database) run.
 * Returns whether the drain has begun, for /health/ready.
 */
export function drainOnClose(app: FastifyInstance, timeoutMs: number): () => boolean {
  let draining = false
  let deadline: NodeJS.Timeout | undefined
  const connections = new Set<Socket>()
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
  })
  app.addHook('preClose', async () => {
    draining = true
    for (const socket of connections) if (socket.bytesRead === 0) socket.destroy()
    deadline = setTimeout(() => app.server.closeAllConnections(), timeoutMs).unref()
  })
  app.addHook('onClose', async () => clearTimeout(deadline))
  app.addHook('onRequest', async (request, reply) => {
    if (!draining || isHealthRoute(request.routeOptions.url)) return
    const shuttingDown = new ProblemError(
      'service_unavailable',
      'The server is shutting down; send the request again.',
      {
        headers: { 'retry-after': RETRY_AFTER_SECONDS },
      },
    )
    return sendProblem(request, reply, shuttingDown)
  })
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close')
  })
  return () => draining
}
