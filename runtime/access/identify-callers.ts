import type { FastifyInstance, FastifyRequest } from 'fastify'
import { identifyRateLimitClient } from '../ops/rate-limit-client.js'
import type { Caller } from './caller.js'
import type { Authenticate } from './authenticate-request.js'

/**
 * Verifies each request's credentials once, in preValidation: before the
 * per-client rate limit (a preHandler) counts the request, so it counts the
 * caller (`<scheme>:<sub>`, an API key's id being its `sub`) rather than the
 * address, and a bad token is a 401 before it is counted. Returns the
 * authenticator the access rules use, answering from that one verification.
 */
export function identifyCallers(app: FastifyInstance, authenticate: Authenticate): Authenticate {
  const verified = new WeakMap<FastifyRequest, Promise<Caller | null>>()
  const authenticateOnce: Authenticate = (request) => {
    let caller = verified.get(request)
    if (caller === undefined) {
      caller = authenticate(request)
      verified.set(request, caller)
    }
    return caller
  }
  app.addHook('preValidation', async (request) => {
    const caller = await authenticateOnce(request)
    const subject = caller?.claims.sub
    // A token without a `sub` names no one: it counts against its address, not a bucket every such token shares.
    if (caller !== null && (typeof subject === 'string' || typeof subject === 'number')) {
      identifyRateLimitClient(request, `${caller.scheme}:${subject}`)
    }
  })
  return authenticateOnce
}
