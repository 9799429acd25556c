import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify'
import type { Storage, Scope } from '../storage/storage.js'
import { MissingReferenceError, RowReferencedError, UniqueViolationError } from '../storage/storage-errors.js'
import type { Row, TableDefinition } from '../table-definition.js'
import type { ItemQuery, ListQuery, Validator } from '../validator.js'
import { describeValidationErrors, type ValidationContext } from './describe-validation-errors.js'
import { buildPageLinks } from './page-links.js'
import { ProblemError, type InvalidParam } from './problem-error.js'

/** A nested route's link to its parent: `/orders/:order_id/items` → orders, order_id. */
export interface RouteScope {
  readonly parent: TableDefinition
  readonly param: string
  readonly column: string
}

interface RouteOptions {
  readonly table: TableDefinition
  readonly scope?: RouteScope
  readonly params?: Validator<Record<string, number>>
}

interface ItemRouteOptions extends RouteOptions {
  readonly params: Validator<Record<string, number>>
  readonly idParam: string
}

/**
 * What generated route files call: one method per endpoint, each registering a
 * Fastify route whose handler validates with the pre-compiled validators, runs
 * the storage call and shapes the response.
 */
export interface RouteFactory {
  list(app: FastifyInstance, url: string, options: RouteOptions & { query: Validator<ListQuery> }): void
  create(app: FastifyInstance, url: string, options: RouteOptions & { body: Validator<object> }): void
  read(app: FastifyInstance, url: string, options: ItemRouteOptions & { query: Validator<ItemQuery> }): void
  replace(app: FastifyInstance, url: string, options: ItemRouteOptions & { body: Validator<object> }): void
  update(app: FastifyInstance, url: string, options: ItemRouteOptions & { body: Validator<object> }): void
  remove(app: FastifyInstance, url: string, options: ItemRouteOptions): void
  /** Answers every other method on `url` with 405 and an `Allow` header. */
  allow(app: FastifyInstance, url: string, methods: readonly HTTPMethods[]): void
}

const ANSWERED_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
const LIST_PARAMETERS = ['page', 'per_page']
const MERGE_PATCH = 'application/merge-patch+json'

export function createRouteFactory(storage: Storage, limits: { bodyMaxBytes: number }): RouteFactory {
  const bodyLimit = limits.bodyMaxBytes
  return {
    list(app, url, options) {
      app.get(url, async (request) => {
        const params = validateParams(request, options)
        const query = validate(options.query, { ...request.query as object }, queryContext(options.table, LIST_PARAMETERS))
        const scope = await resolveScope(storage, options, params)
        const offset = (query.page - 1) * query.per_page
        const { rows, total } = await storage.list(options.table, { scope, limit: query.per_page, offset })
        const totalPages = Math.ceil(total / query.per_page)
        return {
          data: rows,
          meta: { page: query.page, per_page: query.per_page, total, total_pages: totalPages },
          links: buildPageLinks(request.url, query.page, query.per_page, totalPages),
        }
      })
    },

    create(app, url, options) {
      app.post(url, { bodyLimit }, async (request, reply) => {
        rejectMergePatch(request)
        const params = validateParams(request, options)
        rejectQuery(request, options.table)
        const body = validate(options.body, request.body, bodyContext(options))
        const scope = await resolveScope(storage, options, params)
        const values = { ...withDefaults(options.table, body as Row), ...scope }
        const row = await write(options.table, () => storage.insert(options.table, values))
        const path = request.url.split('?')[0]!.replace(/\/$/, '')
        return reply.code(201).header('location', `${path}/${row.id}`).send({ data: row })
      })
    },

    read(app, url, options) {
      app.get(url, async (request) => {
        const params = validateParams(request, options)
        validate(options.query, { ...request.query as object }, queryContext(options.table, []))
        return { data: await findOrFail(storage, options, params) }
      })
    },

    replace(app, url, options) {
      app.put(url, { bodyLimit }, async (request) => {
        rejectMergePatch(request)
        const params = validateParams(request, options)
        rejectQuery(request, options.table)
        const body = validate(options.body, request.body, bodyContext(options))
        await findOrFail(storage, options, params)
        const values = withDefaults(options.table, body as Row, options.scope?.column)
        return { data: await updateOrFail(storage, options, params, values) }
      })
    },

    update(app, url, options) {
      app.patch(url, { bodyLimit }, async (request) => {
        const params = validateParams(request, options)
        rejectQuery(request, options.table)
        const body = validate(options.body, request.body, bodyContext(options)) as Row
        if (Object.keys(body).length === 0) return { data: await findOrFail(storage, options, params) }
        return { data: await updateOrFail(storage, options, params, body) }
      })
    },

    remove(app, url, options) {
      app.delete(url, async (request, reply) => {
        const params = validateParams(request, options)
        rejectQuery(request, options.table)
        const scope = await resolveScope(storage, options, params)
        const id = params[options.idParam]!
        let deleted: boolean
        try {
          deleted = await storage.delete(options.table, id, scope)
        } catch (error) {
          if (!(error instanceof RowReferencedError)) throw error
          throw new ProblemError(
            'still_referenced',
            `${options.table.singular} ${id} is still referenced by ${error.count} ${error.referencingResource}; ` +
              `delete or reassign those first.`,
          )
        }
        if (!deleted) throw notFound(options, params)
        return reply.code(204).send()
      })
    },

    allow(app, url, methods) {
      const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : [...methods]
      const others = ANSWERED_METHODS.filter((method) => !allowed.includes(method))
      const allowHeader = ANSWERED_METHODS.filter((method) => allowed.includes(method)).join(', ')
      app.route({
        method: [...others],
        url,
        handler: async (request) => {
          throw new ProblemError('method_not_allowed', `${request.method} is not allowed here; allowed: ${allowHeader}.`, {
            headers: { allow: allowHeader },
          })
        },
      })
    },
  }
}

function validate<T>(validator: Validator<T>, data: unknown, context: ValidationContext): T {
  if (validator(data)) return data
  throw new ProblemError('validation_failed', summarize(context.in), {
    errors: describeValidationErrors(validator.errors ?? [], context),
  })
}

function summarize(where: InvalidParam['in']): string {
  const what = { query: 'query parameters', path: 'path parameters', body: 'request body' }[where]
  return `The ${what} did not validate; see errors for each problem.`
}

function validateParams(request: FastifyRequest, options: RouteOptions): Record<string, number> {
  if (!options.params) return {}
  return validate(options.params, { ...(request.params as object) }, {
    in: 'path',
    table: options.table,
    known: [],
  })
}

function queryContext(table: TableDefinition, known: readonly string[]): ValidationContext {
  return { in: 'query', table, known }
}

function bodyContext(options: RouteOptions): ValidationContext {
  const pathKey = options.scope?.column
  return {
    in: 'body',
    table: options.table,
    known: options.table.columns.filter((column) => !column.readOnly && column.name !== pathKey).map((column) => column.name),
    ...(pathKey ? { pathKey } : {}),
  }
}

/** Endpoints without query parameters still reject unknown ones, as collections do. */
function rejectQuery(request: FastifyRequest, table: TableDefinition): void {
  const names = Object.keys(request.query as object)
  if (names.length === 0) return
  throw new ProblemError('validation_failed', summarize('query'), {
    errors: names.map((name) => ({ in: 'query', name, detail: `is not a known query parameter; this endpoint takes none (${table.resource})` })),
  })
}

/** JSON Merge Patch (RFC 7396) only makes sense for PATCH. */
function rejectMergePatch(request: FastifyRequest): void {
  if (request.headers['content-type']?.startsWith(MERGE_PATCH)) {
    throw new ProblemError('unsupported_media_type', `${MERGE_PATCH} is accepted by PATCH only; send application/json.`)
  }
}

/** A nested route acts only inside an existing parent: its key becomes a storage scope. */
async function resolveScope(storage: Storage, options: RouteOptions, params: Record<string, number>): Promise<Scope> {
  const scope = options.scope
  if (!scope) return {}
  const parentId = params[scope.param]!
  if (!(await storage.find(scope.parent, parentId))) {
    throw new ProblemError('not_found', `No ${scope.parent.singular} with id ${parentId}.`)
  }
  return { [scope.column]: parentId }
}

async function findOrFail(storage: Storage, options: ItemRouteOptions, params: Record<string, number>): Promise<Row> {
  const scope = await resolveScope(storage, options, params)
  const row = await storage.find(options.table, params[options.idParam]!, scope)
  if (!row) throw notFound(options, params)
  return row
}

async function updateOrFail(
  storage: Storage,
  options: ItemRouteOptions,
  params: Record<string, number>,
  values: Row,
): Promise<Row> {
  const scope = await resolveScope(storage, options, params)
  const row = await write(options.table, () => storage.update(options.table, params[options.idParam]!, values, scope))
  if (!row) throw notFound(options, params)
  return row
}

function notFound(options: ItemRouteOptions, params: Record<string, number>): ProblemError {
  const where = options.scope ? ` in ${options.scope.parent.singular} ${params[options.scope.param]}` : ''
  return new ProblemError('not_found', `No ${options.table.singular} with id ${params[options.idParam]}${where}.`)
}

/** Writable columns the body omits take their default (or null): creates and full replacements. */
function withDefaults(table: TableDefinition, body: Row, pathKey?: string): Row {
  const values: Row = {}
  for (const column of table.columns) {
    if (column.readOnly || column.name === pathKey) continue
    values[column.name] = column.name in body ? body[column.name]! : column.default
  }
  return values
}

/** Maps constraint failures to problems that name the field. */
async function write<T>(table: TableDefinition, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    if (error instanceof UniqueViolationError) {
      throw new ProblemError('unique_violation', `Another ${table.singular} already has this ${error.column}.`, {
        errors: [{ in: 'body', pointer: `/${error.column}`, detail: 'must be unique' }],
      })
    }
    if (error instanceof MissingReferenceError) {
      throw new ProblemError('validation_failed', `${error.column} does not name an existing ${error.referencedTable} row.`, {
        errors: [{ in: 'body', pointer: `/${error.column}`, detail: `no such ${error.referencedTable} id` }],
      })
    }
    throw error
  }
}
