import type { FastifyReply } from 'fastify'

/**
 * Adds `field` to the reply's `Vary` (RFC 9110 §12.5.5) rather than replacing
 * it: CORS adds `Origin`, the routes `Accept`, and a cache must key on both.
 */
export function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary')
  if (current === undefined || current === '') {
    reply.header('vary', field)
    return
  }
  const listed = String(current)
    .split(',')
    .map((name) => name.trim().toLowerCase())
  if (!listed.includes(field.toLowerCase()) && !listed.includes('*')) reply.header('vary', `${current}, ${field}`)
}
