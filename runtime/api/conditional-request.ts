import type { FastifyRequest } from 'fastify'
import type { RowPrecondition } from '../storage/storage.js'
import type { Row, TableDefinition } from '../contract/table-definition.js'
import { entityTagOf } from './entity-tag.js'
import { ProblemError } from '../problems/problem-error.js'

/** A parsed `If-Match` / `If-None-Match`: `*`, or a list of entity tags. */
export type EntityTagCondition = { readonly any: true } | { readonly any: false; readonly tags: readonly EntityTag[] }

interface EntityTag {
  readonly weak: boolean
  /** With its quotes: `"abc"`, as entityTagOf writes it. */
  readonly opaque: string
}

export type ConditionalHeader = 'if-match' | 'if-none-match'

// https://www.rfc-editor.org/rfc/rfc9110#section-8.8.3: entity-tag = [ W/ ] DQUOTE *etagc DQUOTE,
// etagc = %x21 / %x23-7E / obs-text. Lists separate members with commas and optional whitespace.
const ENTITY_TAG = /^(W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/

/**
 * The request's `If-Match` or `If-None-Match` (RFC 9110 §13.1.1, §13.1.2);
 * undefined when absent. A value that is neither `*` nor a list of entity
 * tags is a 400 naming the header (repeated headers arrive joined by commas,
 * as one list).
 */
export function readCondition(request: FastifyRequest, header: ConditionalHeader): EntityTagCondition | undefined {
  const value = request.headers[header]
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (trimmed === '*') return { any: true }
  const tags: EntityTag[] = []
  for (const member of trimmed.split(',')) {
    const text = member.trim()
    // Empty list members are allowed and ignored (RFC 9110 §5.6.1).
    if (text === '') continue
    const match = ENTITY_TAG.exec(text)
    if (match === null) throw malformed(header, text)
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! })
  }
  if (tags.length === 0) throw malformed(header, trimmed)
  return { any: false, tags }
}

function malformed(header: ConditionalHeader, text: string): ProblemError {
  const name = header === 'if-match' ? 'If-Match' : 'If-None-Match'
  // No `errors` entry: their `in` names query, path and body only, and published contracts say so.
  return new ProblemError(
    'bad_request',
    `The ${name} header is not * or a list of entity tags: ${JSON.stringify(text)} is not one; ` +
      'send the ETag a response gave, quotes included ("…").',
  )
}

/** If-Match uses the strong comparison: a weak tag never matches (RFC 9110 §13.1.1). */
function matchesStrongly(condition: EntityTagCondition, current: string): boolean {
  return condition.any || condition.tags.some((tag) => !tag.weak && tag.opaque === current)
}

/** If-None-Match uses the weak comparison: `W/"x"` matches `"x"` (RFC 9110 §13.1.2). */
export function matchesWeakly(condition: EntityTagCondition, current: string): boolean {
  return condition.any || condition.tags.some((tag) => tag.opaque === current)
}

/**
 * What the request's `If-Match` and `If-None-Match` require of the row it
 * writes, for the storage to check atomically with the write
 * (RowPrecondition); undefined when there is nothing to check (neither
 * header, or `If-Match: *` alone, which any existing row matches). On a
 * write, a matching `If-None-Match` (weakly compared; `*` matches any row)
 * fails the precondition too: clients send `If-None-Match: *` so as never to
 * overwrite a record (RFC 9110 §13.1.2). Without `If-Match`, a resource that
 * requires it answers 428.
 */
export function readIfMatch(
  request: FastifyRequest,
  table: TableDefinition,
  required: boolean,
): RowPrecondition | undefined {
  const condition = readCondition(request, 'if-match')
  if (condition === undefined && required) {
    throw new ProblemError(
      'precondition_required',
      `Changing a ${table.singular} requires the If-Match header: read it first and send its ETag as If-Match ` +
        '(or If-Match: * to change it whatever it holds).',
    )
  }
  const mustMatch = condition === undefined || condition.any ? undefined : condition
  const mustNotMatch = readCondition(request, 'if-none-match')
  if (mustMatch === undefined && mustNotMatch === undefined) return undefined
  return (current) => {
    const tag = entityTagOf(table, current)
    return (
      (mustMatch === undefined || matchesStrongly(mustMatch, tag)) &&
      (mustNotMatch === undefined || !matchesWeakly(mustNotMatch, tag))
    )
  }
}

/** The 412 for a write whose If-Match failed, carrying the row's current ETag. */
export function preconditionFailed(table: TableDefinition, current: Row): ProblemError {
  return new ProblemError(
    'precondition_failed',
    `The ${table.singular} does not meet the request's If-Match or If-None-Match: it changed since the ETag in ` +
      'If-Match was issued, or matches If-None-Match; read it again, reapply your change and send it with the current ETag.',
    { headers: { etag: entityTagOf(table, current) } },
  )
}
