import type { FastifyRequest } from 'fastify'

const clients = new WeakMap<FastifyRequest, string>()

/**
 * Names the client a request's rate limit counts against, once its
 * credentials are verified: `<scheme>:<subject>` (an API key's id is its
 * subject).
 * Authentication calls it in a hook that runs before the client limit's
 * `preHandler` (onRequest, preParsing or preValidation); requests nobody
 * identifies count against their IP address.
 */
export function identifyRateLimitClient(request: FastifyRequest, client: string): void {
  clients.set(request, client)
}

/** The client `identifyRateLimitClient` named, else `ip:<address>` (`address`: clientAddressOf's). */
export function rateLimitClientOf(request: FastifyRequest, address: string): string {
  return clients.get(request) ?? `ip:${address}`
}
