import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { allowedMethodsAt } from '../http/allowed-methods.js'
import { noRoute } from '../problems/handle-errors.js'

/**
 * OPTIONS: 204 with an `Allow` header; the not-found handler answers every
 * other method the path does not take with 405 (allowed-methods.ts). Custom
 * operations' paths answer it alike (register-operations.ts).
 */
export async function answerOptions(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const allowHeader = allowedMethodsAt(app, request)
  if (allowHeader === null) throw noRoute(request)
  return reply.code(204).header('allow', allowHeader).send()
}
