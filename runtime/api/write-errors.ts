import { ProblemError, summarize } from '../problems/problem-error.js'
import {
  ConstraintViolationError,
  InvalidValueError,
  MissingReferenceError,
  PreconditionFailedError,
  UniqueViolationError,
} from '../storage/storage-errors.js'
import { preconditionFailed } from './conditional-request.js'
import type { RouteContext } from './route-context.js'

/** Runs a write, mapping constraint failures to problems that name the field as the request's version names it. */
export async function mapWriteErrors<T>(route: RouteContext, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    throw toWriteProblem(route, error)
  }
}

function toWriteProblem(route: RouteContext, error: unknown): unknown {
  const { translation } = route
  if (error instanceof UniqueViolationError) {
    const fields = error.columns.map((column) => translation.fieldOf(column))
    if (fields.length > 1) {
      const named = fields.join(' and ')
      return new ProblemError(
        'unique_violation',
        `Another ${translation.view.singular} already has this combination of ${named}.`,
        {
          errors: fields.map((field) => ({
            in: 'body' as const,
            pointer: `/${field}`,
            detail: `must be unique together with ${fields.filter((other) => other !== field).join(' and ')}`,
          })),
        },
      )
    }
    const field = translation.fieldOf(error.column)
    return new ProblemError('unique_violation', `Another ${translation.view.singular} already has this ${field}.`, {
      errors: [{ in: 'body', pointer: `/${field}`, detail: 'must be unique' }],
    })
  }
  if (error instanceof InvalidValueError) {
    return new ProblemError('validation_failed', summarize('body'), {
      errors: [{ in: 'body', pointer: `/${translation.fieldOf(error.column)}`, detail: error.reason }],
    })
  }
  if (error instanceof PreconditionFailedError) return preconditionFailed(route.table, error.current)
  if (error instanceof ConstraintViolationError) {
    return new ProblemError(
      'constraint_violation',
      `The database refused this write: ${error.constraint} failed, a rule the API does not declare. Nothing was written.`,
    )
  }
  if (error instanceof MissingReferenceError) {
    const field = translation.fieldOf(error.column)
    const named = translation.view.columns.find((column) => column.name === field)?.references?.table
    // A key or target the version names otherwise (`author_id` for `writer_id`; a retired table's key
    // to `authors`, stored as `writers`) names its target as the version does.
    const target =
      field === error.column && named === error.referencedTable
        ? (route.api.tables.get(error.referencedTable)?.singular ?? error.referencedTable)
        : field.replace(/_id$/, '')
    return new ProblemError('validation_failed', `${field} does not name an existing ${target}.`, {
      errors: [{ in: 'body', pointer: `/${field}`, detail: `no ${target} has this id` }],
    })
  }
  return error
}
