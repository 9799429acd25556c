import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { RETRY_AFTER_SECONDS, sendProblem } from '../problems/handle-errors.js'
import { isHealthRoute } from './health-routes.js'
import { ProblemError } from '../problems/problem-error.js'

/**
 * How long, once the drain begins, a keep-alive connection with no request in
 * flight may stay open for its client's next request, answered 503 with
 * `Connection: close`. Closing it at once, as Node's `server.close()` does,
 * resets a request the client sent just before it saw the close (HTTP/1.1
 * has no way to say "closing" on an idle connection): at load, about one per
 * connection. A client that sends nothing within it is not in mid-request.
 */
const DRAIN_IDLE_MS = 1_000

/**
 * Makes `app.close()` a graceful shutdown bounded by `timeoutMs`. Fastify
 * marks the routes closed and calls Node's `server.close()`, which stops
 * accepting connections; this adds the rest:
 * - connections that have not sent a byte are closed at once (browsers open
 *   such connections ahead of need);
 * - keep-alive connections with no request in flight stay open for
 *   DRAIN_IDLE_MS, then close unless their client sent a request meanwhile
 *   (in place of `server.close()` closing them at once: see DRAIN_IDLE_MS);
 * - requests in flight finish, their answers with `Connection: close`, so no
 *   keep-alive connection outlives its last answer;
 * - a request arriving meanwhile on a connection still open is answered 503
 *   problem+json with `Retry-After` and `Connection: close` (in place of
 *   Fastify's `return503OnClosing` answer, which is not problem+json),
 *   health checks excepted;
 * - after `timeoutMs`, connections still open are closed, requests in
 *   flight included, so close() resolves and onClose hooks (closing the
 *   database) run.
 * Returns whether the drain has begun, for /health/ready.
 */
export function drainOnClose(app: FastifyInstance, timeoutMs: number): () => boolean {
  let draining = false
  let deadline: NodeJS.Timeout | undefined
  /** Every open connection, with how many of its requests await their answer. */
  const connections = new Map<Socket, number>()
  const server = app.server
  server.on('connection', (socket: Socket) => {
    connections.set(socket, 0)
    socket.once('close', () => connections.delete(socket))
  })
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    connections.set(socket, (connections.get(socket) ?? 0) + 1)
    response.once('close', () => {
      const inFlight = connections.get(socket)
      if (inFlight !== undefined) connections.set(socket, inFlight - 1)
    })
  })
  // Called by server.close() (Node 19 and later) and by Fastify's forceCloseConnections: 'idle'.
  server.closeIdleConnections = () => {
    for (const [socket, inFlight] of connections) {
      if (socket.bytesRead === 0) socket.destroy()
      // Node's keep-alive timeout, shortened: when it fires on a connection with no request, Node closes it;
      // a request arriving first clears it.
      else if (inFlight === 0) socket.setTimeout(DRAIN_IDLE_MS)
    }
  }
  app.addHook('preClose', async () => {
    draining = true
    deadline = setTimeout(() => server.closeAllConnections(), timeoutMs).unref()
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
