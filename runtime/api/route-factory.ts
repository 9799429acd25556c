import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AccessOperation } from '../contract/access-rule.js'
import type { ApiLimits } from '../contract/api-limits.js'
import { RESERVED_QUERY_NAMES } from '../contract/reserved-query-names.js'
import type { ListOptions, ListResult, RowPrecondition, Scope, Storage } from '../storage/storage.js'
import {
  InvalidValueError,
  MissingReferenceError,
  PreconditionFailedError,
  RowReferencedError,
  UniqueViolationError,
} from '../storage/storage-errors.js'
import type { ColumnDefinition, Row, TableDefinition } from '../contract/table-definition.js'
import type { Validator } from '../contract/validator.js'
import { addVary } from '../http/add-vary.js'
import { allowedMethodsAt } from '../http/allowed-methods.js'
import { PUBLIC_ACCESS, type AccessControl, type AccessGrant } from '../access/authorize-request.js'
import { checkItemQuery, checkListQuery } from '../query/check-query-names.js'
import { matchesWeakly, preconditionFailed, readCondition, readIfMatch } from './conditional-request.js'
import { describeValidationErrors, type ValidationContext } from '../problems/describe-validation-errors.js'
import { ensureReadableReferences } from '../access/ensure-readable-references.js'
import { entityTagOf } from './entity-tag.js'
import { noRoute } from '../problems/handle-errors.js'
import { includeRelations, parseInclude, type IncludeNames } from '../include/include-relations.js'
import type { CursorCodec } from '../query/page-cursor.js'
import { buildCursorLinks, buildPageLinks } from '../query/page-links.js'
import { parseListQuery } from '../query/parse-list-query.js'
import { parseQueryString } from '../query/parse-query-string.js'
import { MERGE_PATCH } from '../http/media-types.js'
import { ProblemError, summarize, validationFailed, type InvalidParam } from '../problems/problem-error.js'
import type { QueryRules } from '../contract/query-rules.js'
import { requestSearch, routePath } from '../http/request-path.js'
import { identityTranslation, type VersionTranslation } from '../contract/version-translation.js'

/** A nested route's link to its parent: `/orders/:order_id/items` → orders, order_id. */
export interface RouteScope {
  readonly parent: TableDefinition
  /** The parent's singular as the route's version names it, for messages. */
  readonly parentSingular: string
  readonly param: string
  readonly column: string
}

interface RouteOptions {
  readonly table: TableDefinition
  readonly scope?: RouteScope
  /** The version's edge translation; absent when the version's records are the storage's rows. */
  readonly translation?: VersionTranslation
}

interface ItemRouteOptions extends RouteOptions {
  readonly idParam: string
  /** PUT, PATCH and DELETE without `If-Match` answer 428 (the manifest's `concurrency.require_if_match`). */
  readonly requireIfMatch: boolean
}

/** What answers one method on one path. */
export type EndpointHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>

/**
 * One method per endpoint, each returning the handler that checks path and
 * query against the resource's rules and the API's limits, validates bodies
 * with the pre-compiled validators, runs the storage call and shapes the
 * response. registerResource (register-resource.ts) routes every method of a
 * path to them.
 */
export interface RouteFactory {
  list(app: FastifyInstance, options: RouteOptions & { rules: QueryRules }): EndpointHandler
  create(options: RouteOptions & { body: Validator<object> }): EndpointHandler
  read(app: FastifyInstance, options: ItemRouteOptions & { rules: QueryRules }): EndpointHandler
  replace(options: ItemRouteOptions & { body: Validator<object> }): EndpointHandler
  update(options: ItemRouteOptions & { body: Validator<object> }): EndpointHandler
  remove(options: ItemRouteOptions): EndpointHandler
  /**
   * Answers OPTIONS with 204 and an `Allow` header; the not-found handler
   * answers every other method the path does not take with 405 (allowed-methods.ts).
   */
  allow(app: FastifyInstance): EndpointHandler
}

export function createRouteFactory(
  storage: Storage,
  limits: ApiLimits,
  tables: readonly TableDefinition[],
  cursors: CursorCodec,
  access: AccessControl = PUBLIC_ACCESS,
): RouteFactory {
  const tablesByName = new Map(tables.map((table) => [table.name, table]))
  /** GET answers: `Cache-Control` and `Vary`, private when the caller's credentials shape them. */
  const cacheHeaders = (reply: FastifyReply, options: RouteOptions & { rules: QueryRules }, byCaller: boolean) => {
    reply.header('cache-control', byCaller ? `private, ${options.rules.cacheControl}` : options.rules.cacheControl)
    addVary(reply, 'Accept')
    if (byCaller) for (const header of access.credentialHeaders) addVary(reply, header)
  }
  // A nested route answers 404 to callers who may not read its parent; includes embed only readable rows.
  const dependsOnCaller = (options: RouteOptions, operation: AccessOperation, include: readonly string[]) =>
    access.dependsOnCaller(options.table.name, operation) ||
    (options.scope !== undefined && access.dependsOnCaller(options.scope.parent.name, 'read')) ||
    (include.length > 0 && access.enabled)
  return {
    list(app, options) {
      const known = knownListParameters(options.rules)
      const edge = edgeOf(options)
      return async (request, reply) => {
        const grant = await access.authorize(request, options.table.name, 'list')
        const params = validateParams(request)
        const raw = parseQueryString(request.url)
        rejectRepeated(raw, ['filter'])
        // Before validation, which fills in the default page.
        const given = Object.keys(raw)
        const query = checkListQuery(raw, known, limits)
        // Cursors are bound to the collection: the route (with its version prefix) and the parent.
        const collection = JSON.stringify([request.routeOptions.url, scopeOf(options, params)])
        const parsed = parseListQuery(query, given, edge.view, options.rules, collection, cursors)
        const include = parseInclude(query.include, options.rules, limits, parsed.errors)
        // A bad query is a 400 whether or not the parent exists.
        rejectInvalid(parsed.errors)
        const scope = { ...(await resolveScope(storage, options, params, grant)), ...grant.rows }
        // Parsed in the version's names (cursors too, bound to its route); the storage takes its columns.
        // The newest version's names are the columns: its requests copy nothing.
        const { translation } = options
        const sort = translation
          ? parsed.sort.map((key) => ({ ...key, column: translation.columnOf(key.column) }))
          : parsed.sort
        const filters = translation
          ? parsed.filters.map((filter) => ({ ...filter, column: translation.columnOf(filter.column) }))
          : parsed.filters
        const result = await listOrReject(storage, options.table, edge, {
          scope,
          filters,
          sort,
          // One row more than the page tells whether there is a next one.
          limit: parsed.perPage + 1,
          ...(parsed.after ? { after: parsed.after } : { offset: (parsed.page! - 1) * parsed.perPage }),
          count: parsed.page !== null,
        })
        const rows = result.rows.slice(0, parsed.perPage)
        const last = rows.at(-1)
        const nextCursor =
          result.rows.length > parsed.perPage && last
            ? cursors.encode(parsed.shape, [...sort.map((key) => last[key.column]!), last.id!])
            : null
        const truncated = await includeRelations(
          storage,
          tablesByName,
          options.table,
          rows,
          include.map(edge.includeOf),
          {
            pointers: rows.map((_, index) => `/data/${index}`),
            itemsMax: limits.includeItemsMax,
            prefix: app.prefix,
            readScopeOf: grant.readScopeOf,
            ...includeNames(options.translation, include),
          },
        )
        const data = translation ? rows.map(translation.rowToVersion) : rows
        const cut = truncated.length > 0 ? { truncated } : {}
        cacheHeaders(reply, options, dependsOnCaller(options, 'list', include))
        const path = routePath(request)
        const search = requestSearch(request.url)
        if (parsed.page === null) {
          return {
            data,
            meta: { per_page: parsed.perPage, next_cursor: nextCursor, ...cut },
            links: buildCursorLinks(path, search, nextCursor),
          }
        }
        const total = result.total ?? 0
        const totalPages = Math.ceil(total / parsed.perPage)
        return {
          data,
          meta: {
            page: parsed.page,
            per_page: parsed.perPage,
            total,
            total_pages: totalPages,
            next_cursor: nextCursor,
            ...cut,
          },
          links: buildPageLinks(path, search, parsed.page, parsed.perPage, totalPages),
        }
      }
    },

    create(options) {
      const edge = edgeOf(options)
      return async (request, reply) => {
        const grant = await access.authorize(request, options.table.name, 'create')
        rejectMergePatch(request)
        const params = validateParams(request)
        rejectQuery(request)
        const body = validate(options.body, request.body, bodyContext(options))
        const scope = await resolveScope(storage, options, params, grant)
        const values = {
          ...withDefaults(options.table, edge.bodyToStorage(body as Row, true)),
          ...scope,
          ...grant.stamp,
        }
        const row = await write(options.table, tablesByName, edge, async () => {
          await ensureReadableReferences(storage, tablesByName, options.table, values, grant)
          try {
            return await storage.insert(options.table, values)
          } catch (error) {
            // The parent was deleted since resolveScope found it: looking again answers its 404.
            if (error instanceof MissingReferenceError && error.column === options.scope?.column) {
              await resolveScope(storage, options, params, grant)
            }
            throw error
          }
        })
        return reply
          .code(201)
          .header('location', `${routePath(request)}/${row.id}`)
          .header('etag', entityTagOf(options.table, row))
          .send({ data: edge.rowToVersion(row) })
      }
    },

    read(app, options) {
      const known = options.rules.includes.length > 0 ? ['include'] : []
      const edge = edgeOf(options)
      return async (request, reply) => {
        const grant = await access.authorize(request, options.table.name, 'read')
        const params = validateParams(request)
        const raw = parseQueryString(request.url)
        rejectRepeated(raw, [])
        const query = checkItemQuery(raw, known)
        const errors: InvalidParam[] = []
        const include = parseInclude(query.include, options.rules, limits, errors)
        rejectInvalid(errors)
        const ifNoneMatch = readCondition(request, 'if-none-match')
        const row = await findOrFail(storage, options, params, grant)
        const tag = entityTagOf(options.table, row)
        cacheHeaders(reply.header('etag', tag), options, dependsOnCaller(options, 'read', include))
        // The tag is the stored row's, whatever `include` embeds (so it serves a later If-Match); the embedded
        // rows change without changing it, so an answer that embeds them is never a 304.
        if (ifNoneMatch && include.length === 0 && matchesWeakly(ifNoneMatch, tag)) return reply.code(304).send()
        const truncated = await includeRelations(
          storage,
          tablesByName,
          options.table,
          [row],
          include.map(edge.includeOf),
          {
            pointers: ['/data'],
            itemsMax: limits.includeItemsMax,
            prefix: app.prefix,
            readScopeOf: grant.readScopeOf,
            ...includeNames(options.translation, include),
          },
        )
        const data = edge.rowToVersion(row)
        return truncated.length > 0 ? { data, meta: { truncated } } : { data }
      }
    },

    replace(options) {
      const edge = edgeOf(options)
      return async (request, reply) => {
        const grant = await access.authorize(request, options.table.name, 'update')
        rejectMergePatch(request)
        const params = validateParams(request)
        rejectQuery(request)
        const precondition = readIfMatch(request, options.table, options.requireIfMatch)
        const body = validate(options.body, request.body, bodyContext(options))
        // A replacement writes exactly the columns the version sees: what another version alone sees stays.
        const values = edge.bodyToStorage(withDefaults(edge.view, body as Row, options.scope?.param), false)
        const row = await updateOrFail(storage, tablesByName, options, params, values, grant, precondition)
        reply.header('etag', entityTagOf(options.table, row))
        return { data: edge.rowToVersion(row) }
      }
    },

    update(options) {
      const edge = edgeOf(options)
      return async (request, reply) => {
        const grant = await access.authorize(request, options.table.name, 'update')
        const params = validateParams(request)
        rejectQuery(request)
        const precondition = readIfMatch(request, options.table, options.requireIfMatch)
        const body = validate(options.body, request.body, bodyContext(options)) as Row
        let row: Row
        if (Object.keys(body).length > 0) {
          row = await updateOrFail(
            storage,
            tablesByName,
            options,
            params,
            edge.bodyToStorage(body, false),
            grant,
            precondition,
          )
        } else {
          // Nothing to write, so nothing to keep atomic: the stored row answers, If-Match checked against it.
          row = await findOrFail(storage, options, params, grant)
          if (precondition && !precondition(row)) throw preconditionFailed(options.table, row)
        }
        reply.header('etag', entityTagOf(options.table, row))
        return { data: edge.rowToVersion(row) }
      }
    },

    remove(options) {
      return async (request, reply) => {
        const grant = await access.authorize(request, options.table.name, 'delete')
        const params = validateParams(request)
        rejectQuery(request)
        const precondition = readIfMatch(request, options.table, options.requireIfMatch)
        const scope = await resolveScope(storage, options, params, grant)
        const id = params[options.idParam]!
        let deleted: boolean
        try {
          deleted = await storage.delete(options.table, id, { ...scope, ...grant.rows }, precondition)
        } catch (error) {
          if (error instanceof PreconditionFailedError) throw preconditionFailed(options.table, error.current)
          if (!(error instanceof RowReferencedError)) throw error
          throw new ProblemError(
            'still_referenced',
            `${edgeOf(options).view.singular} ${id} is still referenced by ${error.count} ${error.count === 1 ? 'row' : 'rows'} ` +
              `of ${error.referencingResource}; delete or reassign those first.`,
          )
        }
        if (!deleted) throw await explainMissing(storage, options, params, scope, grant)
        return reply.code(204).send()
      }
    },

    allow(app) {
      return async (request, reply) => {
        const allowHeader = allowedMethodsAt(app, request)
        if (allowHeader === null) throw noRoute(request)
        return reply.code(204).header('allow', allowHeader).send()
      }
    },
  }
}

/** `context` is only worked out when validation fails, off the hot path. */
function validate<T>(validator: Validator<T>, data: unknown, context: () => ValidationContext): T {
  if (validator(data)) return data
  const described = context()
  throw validationFailed('body', describeValidationErrors(validator.errors ?? [], described))
}

/**
 * Path parameters are ids: positive safe integers written in canonical form
 * (`1e3`, `0x10`, ` 1` or `01` are not ids, though a number parser would take
 * them), as the OpenAPI document declares them. An empty one is a trailing
 * slash, which names no route.
 */
function validateParams(request: FastifyRequest): Record<string, number> {
  const params: Record<string, number> = {}
  const errors: InvalidParam[] = []
  for (const [name, value] of Object.entries(request.params as Record<string, string>)) {
    if (value === '') throw noRoute(request)
    const id = Number(value)
    if (!CANONICAL_ID.test(value)) errors.push({ in: 'path', name, detail: 'must be a positive integer' })
    else if (id > Number.MAX_SAFE_INTEGER)
      errors.push({ in: 'path', name, detail: `must be <= ${Number.MAX_SAFE_INTEGER}` })
    else params[name] = id
  }
  if (errors.length > 0) throw validationFailed('path', errors)
  return params
}

const CANONICAL_ID = /^[1-9][0-9]{0,15}$/

function bodyContext(options: RouteOptions): () => ValidationContext {
  const pathKey = options.scope?.param
  const table = options.translation?.view ?? options.table
  return () => ({
    table,
    known: table.columns.filter((column) => isWritable(column) && column.name !== pathKey).map((column) => column.name),
    ...(pathKey ? { pathKey } : {}),
  })
}

/**
 * Checked before names and ranges (check-query-names.ts), whose messages
 * would hide the real mistake: a name repeated where one value belongs (lists were joined by
 * parseQueryString), brackets where one plain value belongs, and page numbers
 * a number parser would read but nobody writes (`1e1`, `0x10`).
 */
function rejectRepeated(raw: Record<string, unknown>, nested: readonly string[]): void {
  const errors: InvalidParam[] = []
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) errors.push({ in: 'query', name, detail: 'is given more than once; give it once' })
    else if (typeof value === 'object' && !nested.includes(name)) {
      errors.push({ in: 'query', name, detail: 'takes a single value, not brackets' })
    } else if (name === 'page' || name === 'per_page') {
      const problem = describePageNumber(String(value))
      if (problem) errors.push({ in: 'query', name, detail: problem })
    }
  }
  if (errors.length > 0) throw validationFailed('query', errors)
}

/** Digits only; checkListQuery then checks the documented range (page up to 90071992547409). */
function describePageNumber(value: string): string | undefined {
  if (!/^\d+$/.test(value)) return 'must be a whole number'
  // Far past any documented maximum (and, past 308 digits, not even a finite number to compare).
  if (value.replace(/^0+/, '').length > 20) return 'is far too large'
  return undefined
}

function knownListParameters(rules: QueryRules): string[] {
  const exact = Object.entries(rules.filters)
    .filter(([, operators]) => operators.includes('eq'))
    .map(([field]) => field)
  const reserved = RESERVED_QUERY_NAMES.filter((name) => name !== 'include' || rules.includes.length > 0)
  return [...reserved, ...exact]
}

/** A bad cursor is its own problem (`invalid_cursor`); anything else is a validation failure. */
function rejectInvalid(errors: readonly InvalidParam[]): void {
  if (errors.length === 0) return
  const cursorOnly = errors.every((error) => error.name === 'cursor')
  if (!cursorOnly) throw validationFailed('query', [...errors])
  throw new ProblemError(
    'invalid_cursor',
    'The cursor is malformed, edited, or was issued for another collection, sort or filters.',
    {
      errors: [...errors],
    },
  )
}

/** Endpoints without query parameters still reject unknown ones, as collections do (and parse them alike). */
function rejectQuery(request: FastifyRequest): void {
  checkItemQuery(parseQueryString(request.url), [])
}

/** JSON Merge Patch (RFC 7396) only makes sense for PATCH. */
function rejectMergePatch(request: FastifyRequest): void {
  if (request.headers['content-type']?.startsWith(MERGE_PATCH)) {
    throw new ProblemError('unsupported_media_type', `${MERGE_PATCH} is accepted by PATCH only; send application/json.`)
  }
}

/** The rows a nested route sees: those whose parent key is the path's parent id. */
function scopeOf(options: RouteOptions, params: Record<string, number>): Scope {
  return options.scope ? { [options.scope.column]: params[options.scope.param]! } : {}
}

/**
 * scopeOf, once the parent is known to exist and to be readable by the caller
 * (else 404): a nested route acts only inside a parent the caller could read.
 */
async function resolveScope(
  storage: Storage,
  options: RouteOptions,
  params: Record<string, number>,
  grant: AccessGrant,
): Promise<Scope> {
  const scope = options.scope
  if (!scope) return {}
  const parentId = params[scope.param]!
  const readable = grant.readScopeOf(scope.parent.name)
  if (readable === null || !(await storage.find(scope.parent, parentId, readable))) {
    throw new ProblemError('not_found', `No ${scope.parentSingular} with id ${parentId}.`)
  }
  return scopeOf(options, params)
}

async function findOrFail(
  storage: Storage,
  options: ItemRouteOptions,
  params: Record<string, number>,
  grant: AccessGrant,
): Promise<Row> {
  const scope = await resolveScope(storage, options, params, grant)
  const row = await storage.find(options.table, params[options.idParam]!, { ...scope, ...grant.rows })
  if (!row) throw await explainMissing(storage, options, params, scope, grant)
  return row
}

/**
 * A row the operation's statement did not find: 403 when the grant was
 * limited to the caller's own rows and the row exists and is readable to
 * them (it is someone else's), else 404, as if it did not exist.
 */
async function explainMissing(
  storage: Storage,
  options: ItemRouteOptions,
  params: Record<string, number>,
  scope: Scope,
  grant: AccessGrant,
): Promise<ProblemError> {
  const readable = grant.readScopeOf(options.table.name)
  if (Object.keys(grant.rows).length > 0 && readable !== null) {
    const id = params[options.idParam]!
    if (await storage.find(options.table, id, { ...scope, ...readable })) {
      return new ProblemError(
        'forbidden',
        `${options.table.singular} ${id} is not yours; only its owner${grant.scopeAlternatives
          .map((scopes) => `, or a caller with scope ${scopes.join(' and ')},`)
          .join('')} may change it.`,
      )
    }
  }
  return notFound(options, params)
}

async function updateOrFail(
  storage: Storage,
  tablesByName: ReadonlyMap<string, TableDefinition>,
  options: ItemRouteOptions,
  params: Record<string, number>,
  values: Row,
  grant: AccessGrant,
  precondition: RowPrecondition | undefined,
): Promise<Row> {
  const scope = await resolveScope(storage, options, params, grant)
  const row = await write(options.table, tablesByName, edgeOf(options), async () => {
    await ensureReadableReferences(storage, tablesByName, options.table, values, grant)
    return storage.update(options.table, params[options.idParam]!, values, { ...scope, ...grant.rows }, precondition)
  })
  if (!row) throw await explainMissing(storage, options, params, scope, grant)
  return row
}

function notFound(options: ItemRouteOptions, params: Record<string, number>): ProblemError {
  const where = options.scope ? ` in ${options.scope.parentSingular} ${params[options.scope.param]}` : ''
  return new ProblemError(
    'not_found',
    `No ${edgeOf(options).view.singular} with id ${params[options.idParam]}${where}.`,
  )
}

/** Columns a body may hold: not the storage's (`id`, timestamps), nor the owner, which the server stamps. */
function isWritable(column: ColumnDefinition): boolean {
  return !column.readOnly && column.owner === undefined
}

/** Writable columns the body omits take their default (or null): creates and full replacements. */
function withDefaults(table: TableDefinition, body: Row, pathKey?: string): Row {
  const values: Row = {}
  for (const column of table.columns) {
    if (!isWritable(column) || column.name === pathKey) continue
    values[column.name] = column.name in body ? body[column.name]! : column.default
  }
  return values
}

/**
 * Values the storage refuses despite parsing: a filter value it cannot hold
 * (a NUL character, say), or a cursor position it cannot (one signed before
 * the manifest changed).
 */
async function listOrReject(
  storage: Storage,
  table: TableDefinition,
  edge: VersionTranslation,
  options: ListOptions,
): Promise<ListResult> {
  try {
    return await storage.list(table, options)
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error
    const field = edge.fieldOf(error.column)
    if (options.filters?.some((filter) => filter.column === error.column)) {
      throw validationFailed('query', [{ in: 'query', name: field, detail: error.reason }])
    }
    throw new ProblemError('invalid_cursor', 'The cursor holds a value this collection cannot be sorted by.', {
      errors: [{ in: 'query', name: 'cursor', detail: `${field} ${error.reason}` }],
    })
  }
}

/** Maps constraint failures to problems that name the field, as the request's version names it. */
async function write<T>(
  table: TableDefinition,
  tablesByName: ReadonlyMap<string, TableDefinition>,
  edge: VersionTranslation,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    if (error instanceof UniqueViolationError) {
      const field = edge.fieldOf(error.column)
      throw new ProblemError('unique_violation', `Another ${edge.view.singular} already has this ${field}.`, {
        errors: [{ in: 'body', pointer: `/${field}`, detail: 'must be unique' }],
      })
    }
    if (error instanceof InvalidValueError) {
      throw new ProblemError('validation_failed', summarize('body'), {
        errors: [{ in: 'body', pointer: `/${edge.fieldOf(error.column)}`, detail: error.reason }],
      })
    }
    if (error instanceof PreconditionFailedError) throw preconditionFailed(table, error.current)
    if (error instanceof MissingReferenceError) {
      const field = edge.fieldOf(error.column)
      const named = edge.view.columns.find((column) => column.name === field)?.references?.table
      // A key or target the version names otherwise (`author_id` for `writer_id`; a retired table's key
      // to `authors`, stored as `writers`) names its target as the version does.
      const target =
        field === error.column && named === error.referencedTable
          ? (tablesByName.get(error.referencedTable)?.singular ?? error.referencedTable)
          : field.replace(/_id$/, '')
      throw new ProblemError('validation_failed', `${field} does not name an existing ${target}.`, {
        errors: [{ in: 'body', pointer: `/${field}`, detail: `no ${target} has this id` }],
      })
    }
    throw error
  }
}

/**
 * A translated version's names for what includes cut short, from the paths
 * requested: each storage path, and each of its prefixes, is the requested
 * path's prefix of as many segments.
 */
function includeNames(translation: VersionTranslation | undefined, paths: readonly string[]): { names?: IncludeNames } {
  if (!translation || paths.length === 0) return {}
  const byStoragePath = new Map<string, string>()
  for (const path of paths) {
    const segments = path.split('.')
    const storageSegments = translation.includeOf(path).split('.')
    storageSegments.forEach((_, index) => {
      byStoragePath.set(storageSegments.slice(0, index + 1).join('.'), segments.slice(0, index + 1).join('.'))
    })
  }
  const pathOf = (storagePath: string) => byStoragePath.get(storagePath) ?? storagePath
  return { names: { pathOf, listPathOf: translation.listPathOf } }
}

/** The route's translation between its version and the storage. */
function edgeOf(options: RouteOptions): VersionTranslation {
  return options.translation ?? identityTranslation(options.table)
}
