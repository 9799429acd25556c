import { validationFailed, type InvalidParam } from '../problems/problem-error.js'

/** At most this many `name=value` pairs; a longer query string is refused, never cut. */
export const QUERY_PARAMETER_LIMIT = 200
/** Brackets after a name: `filter[field][operator]` is the deepest the query language goes. */
export const QUERY_BRACKET_DEPTH = 2

/** A parsed query string: a value, the values of a repeated name, or bracketed members. */
export type QueryValue = string | string[] | QueryObject
export interface QueryObject {
  [name: string]: QueryValue
}

/**
 * Parses the query string of `url` the one way every endpoint reads it (not
 * Fastify's `request.query`, whose parser differs): `filter[price][gte]=10`
 * nests, a repeated name collects its values in order. Nothing is dropped:
 * malformed percent-encoding, malformed or too deeply bracketed names, a name
 * given both plainly and with brackets, or more than QUERY_PARAMETER_LIMIT
 * pairs are 400 problems naming what is wrong. Objects have no prototype, so
 * `__proto__`, `constructor` or `toString` are names like any other (and,
 * being unknown, refused like any unknown name).
 *
 * `sort`, `include`, `group_by`, `in` operands and `aggregate[field]` are
 * lists: the repeated form (`include=author&include=category`, what
 * openapi-fetch and orval send) is joined into the comma form, which means
 * the same.
 */
export function parseQueryString(url: string): QueryObject {
  const query: QueryObject = Object.create(null)
  const search = url.indexOf('?')
  if (search === -1) return query
  const pairs = url
    .slice(search + 1)
    .split('&')
    .filter((pair) => pair !== '')
  if (pairs.length > QUERY_PARAMETER_LIMIT) {
    throw validationFailed('query', [
      {
        in: 'query',
        detail: `the query string has ${pairs.length} parameters; at most ${QUERY_PARAMETER_LIMIT} are accepted`,
      },
    ])
  }
  const errors: InvalidParam[] = []
  for (const pair of pairs) {
    const equals = pair.indexOf('=')
    const rawName = equals === -1 ? pair : pair.slice(0, equals)
    const name = decodeComponent(rawName)
    const value = decodeComponent(equals === -1 ? '' : pair.slice(equals + 1))
    if (name === null || value === null) {
      errors.push({ in: 'query', name: name ?? rawName, detail: 'is not valid percent-encoded UTF-8' })
      continue
    }
    const problem = addParameter(query, name, value)
    if (problem) errors.push({ in: 'query', name, detail: problem })
  }
  if (errors.length > 0) throw validationFailed('query', errors)
  joinRepeatedLists(query)
  return query
}

/** Adds one pair; returns what is wrong with its name, if anything. */
function addParameter(query: QueryObject, name: string, value: string): string | undefined {
  const path = splitName(name)
  if (!path) return 'is not a parameter name: write name=value or filter[field][operator]=value'
  if (path.length - 1 > QUERY_BRACKET_DEPTH) {
    return `nests ${path.length - 1} brackets deep; at most ${QUERY_BRACKET_DEPTH} (filter[field][operator])`
  }
  let parent = query
  for (let index = 0; index < path.length - 1; index++) {
    const segment = path[index]!
    const child = parent[segment]
    if (child === undefined) parent = parent[segment] = Object.create(null) as QueryObject
    else if (typeof child === 'object' && !Array.isArray(child)) parent = child
    else return 'is given both as a plain value and with brackets'
  }
  return setValue(parent, path.at(-1)!, value)
}

/**
 * `filter[price][gte]` → `['filter', 'price', 'gte']`: a name without
 * brackets, then any number of `[member]` groups (a member may be empty, but
 * holds no bracket); null for anything else.
 */
function splitName(name: string): string[] | null {
  const open = name.indexOf('[')
  const base = open === -1 ? name : name.slice(0, open)
  if (base === '' || base.includes(']')) return null
  const path = [base]
  for (let at = open; at !== -1 && at < name.length;) {
    if (name[at] !== '[') return null
    const close = name.indexOf(']', at + 1)
    if (close === -1) return null
    const member = name.slice(at + 1, close)
    if (member.includes('[')) return null
    path.push(member)
    at = close + 1
  }
  return path
}

/** Sets or adds to `object[name]`; returns what is wrong, if anything. */
function setValue(object: QueryObject, name: string, value: string): string | undefined {
  const existing = object[name]
  if (existing === undefined) object[name] = value
  else if (typeof existing === 'string') object[name] = [existing, value]
  else if (Array.isArray(existing)) existing.push(value)
  else return 'is given both as a plain value and with brackets'
  return undefined
}

function joinRepeatedLists(query: QueryObject): void {
  for (const name of ['sort', 'include', 'group_by']) {
    const value = query[name]
    if (Array.isArray(value)) query[name] = value.join(',')
  }
  const aggregate = query.aggregate
  if (typeof aggregate === 'object' && !Array.isArray(aggregate)) {
    for (const [field, functions] of Object.entries(aggregate)) {
      if (Array.isArray(functions)) aggregate[field] = functions.join(',')
    }
  }
  const filter = query.filter
  if (typeof filter !== 'object' || Array.isArray(filter)) return
  for (const operators of Object.values(filter)) {
    if (typeof operators === 'object' && !Array.isArray(operators) && Array.isArray(operators.in)) {
      operators.in = operators.in.join(',')
    }
  }
}

/** application/x-www-form-urlencoded: `+` is a space; null when the percent-encoding is not UTF-8. */
function decodeComponent(text: string): string | null {
  if (!text.includes('%') && !text.includes('+')) return text
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return null
  }
}
