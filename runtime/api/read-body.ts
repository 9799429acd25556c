import type { FastifyRequest } from 'fastify'
import type { ColumnDefinition, Row, TableDefinition } from '../contract/table-definition.js'
import type { Validator } from '../contract/validator.js'
import { MERGE_PATCH } from '../http/media-types.js'
import { describeValidationErrors } from '../problems/describe-validation-errors.js'
import { ProblemError, validationFailed } from '../problems/problem-error.js'
import type { RouteContext } from './route-context.js'

/** The request body, checked by the route's pre-compiled `validator`, in the version's names. */
export function readBody(route: RouteContext, validator: Validator<object>, body: unknown): Row {
  if (validator(body)) return body as Row
  // Worked out only when validation fails, off the hot path.
  const table = route.translation.view
  const pathKey = route.parentLink?.param
  throw validationFailed(
    'body',
    describeValidationErrors(validator.errors ?? [], {
      table,
      known: table.columns
        .filter((column) => isWritable(column) && column.name !== pathKey)
        .map((column) => column.name),
      ...(pathKey ? { pathKey } : {}),
    }),
  )
}

/** JSON Merge Patch (RFC 7396) only makes sense for PATCH. */
export function rejectMergePatch(request: FastifyRequest): void {
  if (request.headers['content-type']?.startsWith(MERGE_PATCH)) {
    throw new ProblemError('unsupported_media_type', `${MERGE_PATCH} is accepted by PATCH only; send application/json.`)
  }
}

/** Writable columns the body omits take their default (or null): creates and full replacements. */
export function withDefaults(table: TableDefinition, body: Row, pathKey?: string): Row {
  const values: Row = {}
  for (const column of table.columns) {
    if (!isWritable(column) || column.name === pathKey) continue
    values[column.name] = column.name in body ? body[column.name]! : column.default
  }
  return values
}

/** Columns a body may hold: not the storage's (`id`, timestamps), nor the owner, which the server stamps. */
function isWritable(column: ColumnDefinition): boolean {
  return !column.readOnly && column.owner === undefined
}
