import type { ErrorObject } from 'ajv'
import type { TableDefinition } from '../contract/table-definition.js'
import type { InvalidParam } from './problem-error.js'

/** The request body being validated. */
export interface ValidationContext {
  /** What the body is of: a resource, or a custom operation (`resource` names it in messages). */
  readonly table: Pick<TableDefinition, 'resource' | 'columns'>
  /** Members the body may have, listed when an unknown one is sent. */
  readonly known: readonly string[]
  /** On nested routes, the parent key: it comes from the path, never the body. */
  readonly pathKey?: string
}

/**
 * Turns ajv errors of a request body into the `errors` member of a problem:
 * which body pointer is wrong, and what would be right.
 */
export function describeValidationErrors(errors: readonly ErrorObject[], context: ValidationContext): InvalidParam[] {
  const described = errors.map((error) => describeOne(error, context))
  const seen = new Set<string>()
  return described.filter((item) => {
    const key = JSON.stringify(item)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function describeOne(error: ErrorObject, context: ValidationContext): InvalidParam {
  const params = error.params as Record<string, unknown>
  let path = error.instancePath
  let detail: string
  if (error.keyword === 'additionalProperties') {
    const name = String(params.additionalProperty)
    path = `${path}/${escapePointer(name)}`
    detail = describeUnknown(name, context)
  } else if (error.keyword === 'required') {
    path = `${path}/${escapePointer(String(params.missingProperty))}`
    detail = 'is required'
  } else if (error.keyword === 'type' && error.instancePath === '') {
    detail = 'the body must be a JSON object'
  } else {
    detail = describeKeyword(error.keyword, params)
  }
  return { in: 'body', pointer: path, detail }
}

/**
 * Turns ajv errors of a custom operation's query (its values read as their
 * types) into the `errors` member of a problem, by parameter name.
 */
export function describeQueryErrors(errors: readonly ErrorObject[]): InvalidParam[] {
  return errors.map((error) => {
    const params = error.params as Record<string, unknown>
    if (error.keyword === 'required') {
      return { in: 'query', name: String(params.missingProperty), detail: 'is required' }
    }
    return { in: 'query', name: error.instancePath.slice(1), detail: describeKeyword(error.keyword, params) }
  })
}

/**
 * The generated validators carry no message strings (ajv `messages: false`
 * keeps them small); the wording lives here, once.
 */
function describeKeyword(keyword: string, params: Record<string, unknown>): string {
  switch (keyword) {
    case 'type':
      return `must be ${String(params.type).split(',').join(' or ')}`
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(params.comparison)} ${String(params.limit)}`
    case 'minLength':
      return `must be at least ${characters(Number(params.limit))} long`
    case 'maxLength':
      return `must be at most ${characters(Number(params.limit))} long`
    case 'pattern':
      return `must match the pattern ${String(params.pattern)}`
    case 'format':
      return `must be a valid ${String(params.format)}`
    default:
      return `fails the ${keyword} rule`
  }
}

function characters(count: number): string {
  return `${count} ${count === 1 ? 'character' : 'characters'}`
}

function describeUnknown(name: string, context: ValidationContext): string {
  const column = context.table.columns.find((candidate) => candidate.name === name)
  if (name === context.pathKey) return `comes from the path on this route; leave it out of the body`
  if (column?.readOnly || column?.owner) return 'is read-only: the server sets it'
  const allowed = context.known.length > 0 ? context.known.join(', ') : 'none'
  return `is not a field of ${context.table.resource}; allowed: ${allowed}`
}

// https://www.rfc-editor.org/rfc/rfc6901#section-3
function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}
