import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import type { AccessControl, AccessGrant } from '../access/authorize-request.js'
import { describeHookCaller } from '../app/describe-hook-caller.js'
import type { HookCaller } from '../app/define-app.js'
import type { ApiLimits } from '../contract/api-limits.js'
import type { OperationRoute } from '../contract/operation-route.js'
import type { Row, TableDefinition } from '../contract/table-definition.js'
import type { ComputeRequest } from '../app/app-runtime.js'
import { describeQueryErrors, describeValidationErrors } from '../problems/describe-validation-errors.js'
import { ProblemError, validationFailed, type InvalidParam } from '../problems/problem-error.js'
import { parseQueryString } from '../query/parse-query-string.js'
import { parseQueryValue } from '../query/parse-query-value.js'
import type { Storage } from '../storage/storage.js'
import { answerOptions } from './answer-options.js'
import { isInstance, logAppFailure } from '../app/log-app-failure.js'
import { withinDeadline } from '../app/within-deadline.js'
import { unstorableTextReason } from '../storage/value-codec.js'
import { validatePathParams } from './route-context.js'

/** One custom operation's handler as the runtime calls it: the app module's, typed by its generated `Api` there. */
export type OperationFunction = (context: OperationCall) => Promise<unknown>

/** What a handler gets (runtime/app/operation-handler.ts types it per operation). */
export interface OperationCall {
  readonly params: Readonly<Record<string, number>>
  readonly query: Readonly<Row>
  readonly body: unknown
  readonly caller: HookCaller
  readonly version: string
  readonly db: unknown
  readonly log: FastifyBaseLogger
}

/** What every operation of the API shares. */
export interface OperationServices {
  readonly storage: Storage
  readonly limits: ApiLimits
  readonly access: AccessControl
  /** The app module's `operations`, by key; checked against the declarations before any is registered. */
  readonly handlers: Readonly<Record<string, OperationFunction>>
  /** The app module's `db` over a transaction's storage, or outside any transaction. */
  readonly db: (storage?: Storage) => unknown
  /** How long a handler may run (ms; 0: no limit): then the operation has failed, its writes rolled back. */
  readonly hookTimeoutMs: number
  /** Sets the computed fields of records an operation answers with, as every other answer has them. */
  readonly computeRows: (table: TableDefinition, rows: Row[], request: ComputeRequest) => Promise<void>
}

/**
 * Registers a version's custom operations: one Fastify route per path, taking
 * its declared methods (HEAD with GET) and OPTIONS; every other method is a
 * 405 from the not-found handler, as on resource routes. Each request is
 * authorized by the operation's own rule, its record found (404 when absent
 * or hidden from the caller), its query and body checked, and the handler's
 * answer checked and sent as declared; every error is problem+json.
 */
export function registerOperations(
  app: FastifyInstance,
  version: string,
  operations: readonly OperationRoute[],
  services: OperationServices,
): void {
  const byUrl = new Map<string, OperationRoute[]>()
  for (const operation of operations) byUrl.set(operation.url, [...(byUrl.get(operation.url) ?? []), operation])
  for (const [url, routes] of byUrl) {
    const byMethod = new Map<string, OperationRoute>(routes.map((route) => [route.method, route]))
    const get = byMethod.get('GET')
    if (get) byMethod.set('HEAD', get)
    // Operations on one path share the resource's rate limit: they are declared on the same resource.
    const rate = routes.find((route) => route.rate !== undefined)?.rate
    app.route({
      method: [...(byMethod.keys() as Iterable<HTTPMethods>), 'OPTIONS'],
      url,
      bodyLimit: services.limits.bodyMaxBytes,
      config: rate ? { ratePolicy: rate } : {},
      handler: (request, reply) => {
        if (request.method === 'OPTIONS') return answerOptions(app, request, reply)
        return answerOperation(byMethod.get(request.method)!, version, services, request, reply)
      },
    })
  }
}

async function answerOperation(
  operation: OperationRoute,
  version: string,
  services: OperationServices,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const params = validatePathParams(request)
  const grant = await services.access.authorizeRules(
    request,
    operation.access ?? ['public'],
    operation.target?.table.name ?? null,
  )
  if (operation.target) await findTarget(operation, services.storage, grant, params[operation.target.param]!)
  const query = readOperationQuery(operation, request.url)
  const body = readOperationBody(operation, request.body)
  const handler = services.handlers[operation.handler]!
  const caller = describeHookCaller(grant.caller)
  const call = (storage?: Storage) =>
    withinDeadline(
      () => handler({ params, query, body, caller, version, db: services.db(storage), log: request.log }),
      services.hookTimeoutMs,
    )
  let result: unknown
  try {
    // Any method but GET may write: its handler's writes commit together, or not at all when it throws.
    result = operation.method === 'GET' ? await call() : await services.storage.transaction(call)
  } catch (error) {
    // problem(...) is the handler's answer; anything else is a bug in it, logged but never sent. A
    // TransactionAbortedError is a write of the handler's that failed while it went on.
    if (isInstance(error, ProblemError)) throw error
    logAppFailure(request.log, { operation: operation.handler }, error, 'operation handler failed')
    const rolledBack = operation.method === 'GET' ? '' : '; nothing it wrote was kept'
    throw new ProblemError('operation_failed', `The operation ${operation.handler} failed${rolledBack}.`)
  }
  reply.code(operation.status)
  if (operation.responds === undefined) return reply.send()
  return { data: await shapeResponse(operation, services, result, { log: request.log, caller, version }) }
}

/** The record an operation acts on: 404 when it does not exist or the caller may not see it, 403 when only not theirs. */
async function findTarget(operation: OperationRoute, storage: Storage, grant: AccessGrant, id: number): Promise<void> {
  const { table } = operation.target!
  if (await storage.find(table, id, grant.rows)) return
  const readable = grant.readableRowsOf(table.name)
  if (Object.keys(grant.rows).length > 0 && readable !== null && (await storage.find(table, id, readable))) {
    throw new ProblemError(
      'forbidden',
      `${table.singular} ${id} is not yours; only its owner${grant.scopeAlternatives
        .map((scopes) => `, or a caller with scope ${scopes.join(' and ')},`)
        .join('')} may do this.`,
    )
  }
  throw new ProblemError('not_found', `No ${table.singular} with id ${id}.`)
}

/** The declared query parameters, each read as its type, then checked by the operation's validator; nothing else. */
function readOperationQuery(operation: OperationRoute, url: string): Row {
  const raw = parseQueryString(url)
  const fields = operation.query?.fields ?? {}
  const errors: InvalidParam[] = []
  const values: Row = {}
  for (const [name, value] of Object.entries(raw)) {
    const type = Object.hasOwn(fields, name) ? fields[name] : undefined
    if (type === undefined) {
      const known = Object.keys(fields)
      errors.push({
        in: 'query',
        name,
        detail: `is not a query parameter of this operation; ${known.length > 0 ? `allowed: ${known.join(', ')}` : 'it takes none'}`,
      })
    } else if (typeof value !== 'string') {
      errors.push({ in: 'query', name, detail: 'takes a single value, given once, without brackets' })
    } else {
      const parsed = parseQueryValue(value, { type })
      if ('problem' in parsed) errors.push({ in: 'query', name, detail: parsed.problem })
      else values[name] = parsed.value
    }
  }
  if (errors.length > 0) throw validationFailed('query', errors)
  const validator = operation.query?.validator
  if (validator && !validator(values)) throw validationFailed('query', describeQueryErrors(validator.errors ?? []))
  return values
}

/** The body, checked by the operation's validator; an operation without a body refuses one. */
function readOperationBody(operation: OperationRoute, body: unknown): unknown {
  if (operation.body === undefined) {
    if (body === undefined || body === null) return undefined
    throw validationFailed('body', [{ in: 'body', pointer: '', detail: 'this operation takes no body; send none' }])
  }
  const { fields, validator } = operation.body
  if (validator(body)) {
    const unstorable = findUnstorableText(body, '')
    if (unstorable === undefined) return body
    throw validationFailed('body', [{ in: 'body', ...unstorable }])
  }
  const resource = operation.handler.split('.').slice(0, 2).join('.')
  throw validationFailed(
    'body',
    describeValidationErrors(validator.errors ?? [], { table: { resource, columns: [] }, known: fields }),
  )
}

/**
 * The response's `data` as declared: a record is read again by its id and
 * shown as the request's version names it (the handler works in the newest
 * version's names); a shape of its own must match its schema. A handler that
 * answers otherwise is a bug in server code: 500, logged.
 */
async function shapeResponse(
  operation: OperationRoute,
  services: OperationServices,
  result: unknown,
  request: ComputeRequest,
): Promise<unknown> {
  const responds = operation.responds!
  if (responds.kind === 'shape') {
    if (responds.validator(result)) return result
    request.log.error(
      { operation: operation.handler, errors: responds.validator.errors },
      'operation handler returned a response its declaration does not allow',
    )
    throw new ProblemError('operation_failed', `The operation ${operation.handler} failed.`)
  }
  const id = typeof result === 'object' && result !== null ? (result as { id?: unknown }).id : undefined
  const row = typeof id === 'number' ? await services.storage.find(responds.table, id) : undefined
  if (row === undefined) {
    request.log.error(
      { operation: operation.handler, returned: id },
      `operation handler must return a ${responds.table.singular} record (with its id), as its declaration says`,
    )
    throw new ProblemError('operation_failed', `The operation ${operation.handler} failed.`)
  }
  // A GET only reads; any other method may have written what the answer reports.
  await services.computeRows(responds.table, [row], { ...request, afterWrite: operation.method !== 'GET' })
  return responds.translation ? responds.translation.rowToVersion(row) : row
}

/**
 * The first string in a checked body that no database text can hold (a NUL,
 * an unpaired surrogate), with its pointer: the handler would store it, and
 * the client is told as a generated route tells it, rather than the handler
 * failing on it.
 */
function findUnstorableText(value: unknown, pointer: string): { pointer: string; detail: string } | undefined {
  if (typeof value === 'string') {
    const detail = unstorableTextReason(value)
    return detail === undefined ? undefined : { pointer, detail }
  }
  if (typeof value !== 'object' || value === null) return undefined
  for (const [key, member] of Object.entries(value)) {
    const found = findUnstorableText(member, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
    if (found) return found
  }
  return undefined
}
