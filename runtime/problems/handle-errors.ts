import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { allowedMethodsAt } from '../http/allowed-methods.js'
import { ProblemError } from './problem-error.js'
import type { ProblemCode } from './problem-catalogue.js'
import { requestedPath } from '../http/request-path.js'
import { StorageBusyError } from '../storage/storage-errors.js'

/** Fastify's own client errors, by code, and the problem each becomes. */
const FASTIFY_CLIENT_ERRORS: Record<string, ProblemCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_body',
}

/** The methods some route of the API takes: what `OPTIONS *` answers. */
const SERVER_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'

/** What 503 answers tell clients to wait before sending the request again: the load or the drain is brief. */
export const RETRY_AFTER_SECONDS = '1'

/** Fastify's default `maxParamLength`: a longer path segment matches no route. */
export const MAX_PATH_SEGMENT_LENGTH = 100

/**
 * Every error becomes application/problem+json. Client errors say what was
 * wrong; anything else is logged and answered with a bare 500 — never a stack.
 */
export function handleErrors(app: FastifyInstance, options: { bodyMaxBytes: number }): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblemError(error, options.bodyMaxBytes)
    if (!problem) {
      request.log.error({ err: error }, 'unhandled error')
      return sendProblem(
        request,
        reply,
        new ProblemError('internal_error', 'An unexpected error occurred; it has been logged.'),
      )
    }
    return sendProblem(request, reply, problem)
  })
  app.setNotFoundHandler((request, reply) => {
    // `OPTIONS *` asks what the server as a whole supports (RFC 9110 §9.3.7), not about a resource.
    if (request.method === 'OPTIONS' && request.url === '*') {
      return reply.code(204).header('allow', SERVER_METHODS).send()
    }
    const tooLong = requestedPath(request.url)
      .split('/')
      .some((segment) => segment.length > MAX_PATH_SEGMENT_LENGTH)
    if (tooLong) return sendProblem(request, reply, segmentTooLong())
    // A known path asked with a method it does not take (allowed-methods.ts).
    const allow = allowedMethodsAt(app, request)
    if (allow === null) return sendProblem(request, reply, noRoute(request))
    const detail = `${request.method} is not allowed here; allowed: ${allow}.`
    return sendProblem(request, reply, new ProblemError('method_not_allowed', detail, { headers: { allow } }))
  })
}

/** The not_found problem of a path no route serves. */
export function noRoute(request: FastifyRequest): ProblemError {
  return new ProblemError(
    'not_found',
    `No route matches ${request.method} ${requestedPath(request.url)}; every route is in the API reference (served at /docs by default).`,
  )
}

function segmentTooLong(): ProblemError {
  return new ProblemError(
    'uri_too_long',
    `A path segment is longer than ${MAX_PATH_SEGMENT_LENGTH} characters; no route takes one.`,
  )
}

/**
 * Fastify's `frameworkErrors` option: what its router refuses before any
 * route or hook runs (a path that is not valid percent-encoded UTF-8, a path
 * parameter over `maxParamLength`).
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendProblem(request, reply, new ProblemError('bad_request', 'The path is not valid percent-encoded UTF-8.'))
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendProblem(request, reply, segmentTooLong())
  return sendProblem(request, reply, new ProblemError('bad_request', error.message))
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: ProblemError): FastifyReply {
  const problem = error.toProblem(requestedPath(request.url))
  if (error.extra.headers) reply.headers(error.extra.headers)
  return reply.code(problem.status).type('application/problem+json').send(problem)
}

/** Node's HTTP parser errors (https://github.com/nodejs/llhttp), and what each tells the client. */
const PARSER_ERRORS: Record<string, { code: ProblemCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'header_fields_too_large',
    detail:
      'The request line and headers exceed the size limit (16 KiB by default); send a shorter URL or fewer headers.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    detail: 'The request did not arrive in full within the time limit; send it again, without pausing.',
  },
  HPE_INVALID_METHOD: { code: 'bad_request', detail: 'The request method is not one HTTP defines.' },
  HPE_UNEXPECTED_CONTENT_LENGTH: {
    code: 'bad_request',
    detail: 'The request has more than one Content-Length, or one that is not a number; send exactly one.',
  },
  HPE_INVALID_TRANSFER_ENCODING: {
    code: 'bad_request',
    detail: 'The Transfer-Encoding cannot be read: it must end in chunked, and come without Content-Length.',
  },
  HPE_INVALID_CHUNK_SIZE: {
    code: 'bad_request',
    detail: 'A chunk size of the chunked body is not a hexadecimal number.',
  },
  HPE_INVALID_HEADER_TOKEN: {
    code: 'bad_request',
    detail: 'A header name or value holds a character HTTP does not allow.',
  },
}

/**
 * Fastify's `clientErrorHandler`: requests Node's parser refuses (or that
 * time out) before Fastify sees them. The answer is written to the socket as
 * a complete HTTP/1.1 response, which closes the connection: what follows on
 * it cannot be trusted to start a request.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset or destroyed connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const known = PARSER_ERRORS[error.code ?? '']
  writeProblemAndClose(
    socket,
    new ProblemError(
      known?.code ?? 'bad_request',
      known?.detail ?? `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`,
    ),
  )
}

/**
 * Node's 'connect' event: a CONNECT request asks for a tunnel, which this
 * server does not open (without a listener Node closes the socket without a word).
 */
export function refuseTunnel(_request: IncomingMessage, socket: Socket): void {
  writeProblemAndClose(socket, new ProblemError('bad_request', 'CONNECT is not supported: this server is not a proxy.'))
}

/**
 * Node's 'checkExpectation' event: an Expect header other than 100-continue,
 * the only expectation HTTP defines (RFC 9110, section 10.1.1).
 */
export function refuseExpectation(request: IncomingMessage, response: ServerResponse): void {
  const problem = new ProblemError(
    'expectation_failed',
    `Expect: ${request.headers.expect} cannot be met; the only expectation this server meets is 100-continue.`,
  ).toProblem(requestedPath(request.url ?? '/'))
  const body = JSON.stringify(problem)
  response
    .writeHead(problem.status, {
      'content-type': 'application/problem+json',
      'content-length': Buffer.byteLength(body),
    })
    .end(body)
}

/**
 * Writes a complete HTTP/1.1 response to a socket Node's parser has let go
 * of, and closes it: what follows on it cannot be trusted to start a request.
 * The target was not parsed, or cannot be trusted: no instance.
 */
function writeProblemAndClose(socket: Socket, error: ProblemError): void {
  const problem = error.toProblem()
  const body = JSON.stringify(problem)
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
        'Content-Type: application/problem+json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    )
  }
  socket.destroy()
}

function toProblemError(error: FastifyError, bodyMaxBytes: number): ProblemError | null {
  if (error instanceof ProblemError) return error
  if (error instanceof StorageBusyError) {
    return new ProblemError(
      'service_unavailable',
      'Every database connection is busy; send the request again shortly.',
      {
        headers: { 'retry-after': RETRY_AFTER_SECONDS },
      },
    )
  }
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
  return new ProblemError('malformed_body', `The body is not valid JSON: ${message}`)
}
