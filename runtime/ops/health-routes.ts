import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { allowedMethodsAt } from '../http/allowed-methods.js'
import { sendProblem } from '../problems/handle-errors.js'
import { ProblemError } from '../problems/problem-error.js'

/**
 * The health checks' paths: outside every version prefix, absent from the
 * versioned OpenAPI documents, and not API routes: whatever counts API
 * traffic should skip routes for which isHealthRoute is true.
 */
export const HEALTH_PATHS = { live: '/health/live', ready: '/health/ready' } as const

/** Whether a route pattern (`request.routeOptions.url`; undefined when no route matched) is a health check. */
export function isHealthRoute(routeUrl: string | undefined): boolean {
  return routeUrl === HEALTH_PATHS.live || routeUrl === HEALTH_PATHS.ready
}

/** A dependency /health/ready checks: the server cannot answer without it. */
export interface ReadinessCheck {
  /** Starts the 503's detail, e.g. "The database". */
  readonly name: string
  /** Resolves when the dependency answers. */
  check(): Promise<void>
}

export interface HealthRoutesOptions {
  readonly checks: readonly ReadinessCheck[]
  /** True once the server is shutting down: ready answers 503 from then on. */
  readonly isDraining: () => boolean
}

/** How long /health/ready waits for each check, in milliseconds: probes have short timeouts of their own. */
export const READY_TIMEOUT_MS = 2_000

/**
 * `/health/live`: 200 while the process runs, touching nothing. `/health/ready`:
 * 200 when every check answers within READY_TIMEOUT_MS; 503 problem+json
 * while draining, or naming the first dependency that failed or was too slow.
 */
export function registerHealthRoutes(app: FastifyInstance, options: HealthRoutesOptions): void {
  registerCheck(app, HEALTH_PATHS.live, async (_request, reply) => sendStatus(reply, 'live'))
  registerCheck(app, HEALTH_PATHS.ready, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    if (options.isDraining()) {
      return sendProblem(request, reply, new ProblemError('service_unavailable', 'The server is shutting down.'))
    }
    for (const { name, check } of options.checks) {
      const outcome = await settleWithin(check, READY_TIMEOUT_MS)
      if (outcome === 'answered') continue
      if (outcome === 'timed out') {
        const detail = `${name} did not answer within ${READY_TIMEOUT_MS} ms.`
        return sendProblem(request, reply, new ProblemError('service_unavailable', detail))
      }
      request.log.error({ err: outcome.error }, `readiness check: ${name} failed`)
      const detail = `${name} cannot be reached; the server log says why.`
      return sendProblem(request, reply, new ProblemError('service_unavailable', detail))
    }
    return sendStatus(reply, 'ready')
  })
}

/** GET and HEAD run `check`; OPTIONS (which makes the path known, so other methods get 405) lists them. */
function registerCheck(
  app: FastifyInstance,
  url: string,
  check: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
): void {
  app.route({
    method: ['GET', 'HEAD', 'OPTIONS'],
    url,
    handler: async (request, reply) =>
      request.method === 'OPTIONS'
        ? reply.code(204).header('allow', allowedMethodsAt(app, request)).send()
        : check(request, reply),
  })
}

function sendStatus(reply: FastifyReply, status: 'live' | 'ready'): FastifyReply {
  return reply.header('cache-control', 'no-store').send({ status })
}

async function settleWithin(
  check: () => Promise<void>,
  timeoutMs: number,
): Promise<'answered' | 'timed out' | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), timeoutMs)))
  try {
    return await Promise.race([
      check().then(
        () => 'answered' as const,
        (error: unknown) => ({ error }),
      ),
      timeout,
    ])
  } finally {
    clearTimeout(timer)
  }
}
