import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ProblemError } from './problem-error.js'
import type { ProblemCode } from './problem-catalogue.js'

/** Fastify's own client errors, by code, and the problem each becomes. */
const FASTIFY_CLIENT_ERRORS: Record<string, ProblemCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_body',
}

/**
 * Every error becomes application/problem+json. Client errors say what was
 * wrong; anything else is logged and answered with a bare 500 — never a stack.
 */
export function handleErrors(app: FastifyInstance, options: { bodyMaxBytes: number }): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblemError(error, options.bodyMaxBytes)
    if (!problem) {
      request.log.error({ err: error }, 'unhandled error')
      return sendProblem(request, reply, new ProblemError('internal_error', 'An unexpected error occurred; it has been logged.'))
    }
    return sendProblem(request, reply, problem)
  })
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, new ProblemError('not_found', `No route matches ${request.method} ${request.url.split('?')[0]}.`)),
  )
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: ProblemError): FastifyReply {
  const problem = error.toProblem(request.url.split('?')[0]!)
  if (error.extra.headers) reply.headers(error.extra.headers)
  return reply.code(problem.status).type('application/problem+json').send(problem)
}

function toProblemError(error: FastifyError, bodyMaxBytes: number): ProblemError | null {
  if (error instanceof ProblemError) return error
  const code = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined
  if (code === 'payload_too_large') {
    return new ProblemError(code, `The body exceeds the limit of ${bodyMaxBytes} bytes.`)
  }
  if (code === 'unsupported_media_type') {
    return new ProblemError(code, 'Send the body as application/json (PATCH also takes application/merge-patch+json).')
  }
  if (code === 'malformed_body' || (error instanceof SyntaxError && error.statusCode === 400)) {
    return malformedBody(error.message)
  }
  if (code) return new ProblemError(code, error.message)
  const status = error.statusCode ?? 500
  if (status >= 400 && status < 500) return new ProblemError('bad_request', error.message)
  return null
}

function malformedBody(message: string): ProblemError {
  // Fastify's parser refuses prototype-poisoning keys with a SyntaxError of its own.
  if (/prototype/.test(message)) {
    return new ProblemError('malformed_body', 'The body contains a "__proto__" or "constructor.prototype" key, which is not accepted.')
  }
  return new ProblemError('malformed_body', `The body is not valid JSON: ${message}`)
}
