import { readDecimalDigits } from '../../runtime/contract/decimal-pattern.js'
import { createFinding } from './contract-finding.js'
import type { ContractRuleId } from './contract-rules.js'
import type { FindingCollector } from './finding-collector.js'
import { asList, asNode, type OpenApiNode } from './openapi-node.js'
import { shapeOf, type SchemaShape } from './schema-shape.js'

/** The two documents and the operation being compared, shared by every schema of that operation. */
export interface OperationComparison {
  readonly older: OpenApiNode
  readonly newer: OpenApiNode
  /** `GET /v1/posts` */
  readonly operation: string
  readonly resource: string | null
  readonly findings: FindingCollector
  /** Component pairs already compared for this operation: schemas that embed each other end here. */
  readonly visited: Set<string>
}

/** Where in the operation a schema sits. */
export interface SchemaPlace {
  /** Requests must keep accepting what they accepted; responses must not return anything new. */
  readonly direction: 'request' | 'response'
  /** `data[].title`; empty for the body or parameter itself. */
  readonly field: string
  /** How findings name the place: `response field data[].title`, `query parameter per_page`. */
  readonly describe: (field: string) => string
  /** Identifies the place across operations (the component it lies in and the path within it). */
  readonly key: string
  /** What findings name when `field` is empty: the parameter's field (`price` of `filter[price][eq]`). */
  readonly fieldName?: string
  /** The rule for a lowered `maximum` (per_page has its own). */
  readonly maximumRule?: ContractRuleId
}

const ABSENT = '(absent)'

/** Describes a place in a body: `request body`, `response field data[].title`, `response 400 field detail`. */
export function describeBodyField(prefix: string): (field: string) => string {
  return (field) => (field === '' ? `${prefix} body` : `${prefix} field ${field}`)
}

/**
 * Compares a schema of the published contract with the current one at the
 * same place, reporting each difference by the direction it breaks in.
 */
export function compareSchemas(comparison: OperationComparison, place: SchemaPlace, older: unknown, newer: unknown) {
  const before = shapeOf(comparison.older, older)
  const after = shapeOf(comparison.newer, newer)
  const key = before.pointer !== null && after.pointer !== null ? `${before.pointer}|${after.pointer}` : place.key
  if (before.pointer !== null && after.pointer !== null) {
    if (comparison.visited.has(key)) return
    comparison.visited.add(key)
  }
  const here = { ...place, key }
  const report = reporter(comparison, here)
  if (before.type !== after.type) {
    const envelope = place.direction === 'response' && place.field === ''
    report(envelope ? 'RESPONSE_ENVELOPE_CHANGED' : 'FIELD_TYPE_CHANGED', before.type, after.type)
    return
  }
  compareNullable(place, before, after, report)
  compareEnums(place, before.schema, after.schema, report)
  if (place.direction === 'request') compareConstraints(place, before.schema, after.schema, report)
  compareProperties(comparison, here, before.schema, after.schema)
  if (before.schema.items !== undefined && after.schema.items !== undefined) {
    compareSchemas(comparison, child(here, '[]'), before.schema.items, after.schema.items)
  }
}

/** A finding about the operation itself (a status, a media type, a parameter) rather than a place in a schema. */
export function addOperationFinding(
  comparison: OperationComparison,
  rule: ContractRuleId,
  finding: { subject: string; name: string; before: string; after: string },
) {
  comparison.findings.add(
    createFinding(rule, { operation: comparison.operation, resource: comparison.resource, ...finding }),
    `${comparison.operation}|${rule}|${finding.subject}|${finding.name}`,
  )
}

type Report = (rule: ContractRuleId, was: string, now: string, keySuffix?: string) => void

function reporter(comparison: OperationComparison, place: SchemaPlace): Report {
  return (rule, was, now, keySuffix = '') =>
    comparison.findings.add(
      createFinding(rule, {
        operation: comparison.operation,
        subject: place.describe(place.field),
        before: was,
        after: now,
        resource: comparison.resource,
        name: leafName(place.field) || (place.fieldName ?? ''),
      }),
      `${rule}|${place.key}|${keySuffix}`,
      place.field.split('.').length,
    )
}

function compareNullable(place: SchemaPlace, before: SchemaShape, after: SchemaShape, report: Report) {
  if (before.nullable === after.nullable) return
  const describe = (shape: SchemaShape) => (shape.nullable ? `${shape.type} or null` : shape.type)
  if (place.direction === 'response' && after.nullable)
    report('RESPONSE_NULLABLE_ADDED', describe(before), describe(after))
  if (place.direction === 'request') {
    report(
      after.nullable ? 'REQUEST_CONSTRAINT_RELAXED' : 'REQUEST_NULLABLE_REMOVED',
      describe(before),
      describe(after),
    )
  }
}

function compareEnums(place: SchemaPlace, before: OpenApiNode, after: OpenApiNode, report: Report) {
  if (before.enum === undefined && after.enum === undefined) return
  const was = enumValues(before)
  const now = enumValues(after)
  const describe = (values: readonly string[] | null) => (values === null ? 'any value' : values.join(', '))
  const removed = was === null ? now !== null : was.some((value) => !now?.includes(value))
  const added = now === null ? was !== null : now.some((value) => !was?.includes(value))
  if (place.direction === 'request' && removed) report('REQUEST_ENUM_VALUE_REMOVED', describe(was), describe(now))
  else if (place.direction === 'request' && added) report('REQUEST_ENUM_VALUE_ADDED', describe(was), describe(now))
  if (place.direction === 'response' && added) report('RESPONSE_ENUM_VALUE_ADDED', describe(was), describe(now))
}

function enumValues(schema: OpenApiNode): string[] | null {
  return schema.enum === undefined ? null : asList(schema.enum).map((value) => JSON.stringify(value))
}

/** Request limits: a lower bound going up or an upper bound going down rejects what was accepted. */
const BOUNDS = [
  { keyword: 'maxLength', label: 'max_length', upper: true, rule: 'REQUEST_MAX_LENGTH_DECREASED' },
  { keyword: 'minLength', label: 'min_length', upper: false, rule: 'REQUEST_MIN_LENGTH_INCREASED' },
  { keyword: 'minimum', label: 'minimum', upper: false, rule: 'REQUEST_MINIMUM_INCREASED' },
  { keyword: 'maximum', label: 'maximum', upper: true, rule: 'REQUEST_MAXIMUM_DECREASED' },
  { keyword: 'maxItems', label: 'max items', upper: true, rule: 'REQUEST_MAX_ITEMS_DECREASED' },
] as const

function compareConstraints(place: SchemaPlace, before: OpenApiNode, after: OpenApiNode, report: Report) {
  for (const { keyword, label, upper, rule } of BOUNDS) {
    const was = typeof before[keyword] === 'number' ? before[keyword] : null
    const now = typeof after[keyword] === 'number' ? after[keyword] : null
    if (was === now) continue
    const describe = (value: number | null) => (value === null ? `no ${label}` : `${label} ${value}`)
    const narrowed = now !== null && (was === null || (upper ? now < was : now > was))
    const narrowedRule = keyword === 'maximum' ? (place.maximumRule ?? rule) : rule
    report(narrowed ? narrowedRule : 'REQUEST_CONSTRAINT_RELAXED', describe(was), describe(now), keyword)
  }
  if (before.pattern !== after.pattern && compareDecimalDigits(before, after, report)) return
  if (before.pattern !== after.pattern) {
    const describe = (pattern: unknown) => (typeof pattern === 'string' ? `pattern ${pattern}` : 'no pattern')
    const rule = after.pattern === undefined ? 'REQUEST_CONSTRAINT_RELAXED' : 'REQUEST_PATTERN_CHANGED'
    report(rule, describe(before.pattern), describe(after.pattern), 'pattern')
  }
}

/**
 * A decimal's pattern says its digits (decimalPattern): fewer integer or
 * fraction digits refuse values that were accepted (REQUEST_PATTERN_CHANGED),
 * more accept more. Returns false when either side is no decimal pattern.
 */
function compareDecimalDigits(before: OpenApiNode, after: OpenApiNode, report: Report): boolean {
  if (before.format !== 'decimal' || after.format !== 'decimal') return false
  const was = typeof before.pattern === 'string' ? readDecimalDigits(before.pattern) : null
  const now = typeof after.pattern === 'string' ? readDecimalDigits(after.pattern) : null
  if (was === null || now === null) return false
  const describe = ({ integerDigits, scale }: { integerDigits: number; scale: number }) =>
    `decimal of ${integerDigits} integer and ${scale} fraction digits`
  const narrowed = now.integerDigits < was.integerDigits || now.scale < was.scale
  report(narrowed ? 'REQUEST_PATTERN_CHANGED' : 'REQUEST_CONSTRAINT_RELAXED', describe(was), describe(now), 'pattern')
  return true
}

function compareProperties(
  comparison: OperationComparison,
  place: SchemaPlace,
  before: OpenApiNode,
  after: OpenApiNode,
) {
  const was = asNode(before.properties)
  const now = asNode(after.properties)
  const wasRequired = new Set(asList(before.required))
  const nowRequired = new Set(asList(after.required))
  const removed = Object.keys(was).filter((name) => !(name in now))
  const added = Object.keys(now).filter((name) => !(name in was))
  const renames = pairRenames(comparison, removed, added, was, now)
  const envelope = place.direction === 'response' && place.field === ''
  const at = (name: string) => child(place, name)
  const reportAt = (name: string, rule: ContractRuleId, from: string, to: string) =>
    reporter(comparison, at(name))(rule, from, to)
  const typeOf = (document: OpenApiNode, schema: unknown) => shapeOf(document, schema).type
  for (const name of removed) {
    const renamedTo = renames.get(name)
    const rule = envelope
      ? 'RESPONSE_ENVELOPE_CHANGED'
      : place.direction === 'request'
        ? renamedTo === undefined
          ? 'REQUEST_FIELD_REMOVED'
          : 'REQUEST_FIELD_RENAMED'
        : renamedTo === undefined
          ? 'RESPONSE_FIELD_REMOVED'
          : 'RESPONSE_FIELD_RENAMED'
    reportAt(name, rule, name, renamedTo ?? ABSENT)
  }
  const renamedTargets = new Set(renames.values())
  for (const name of added.filter((name) => !renamedTargets.has(name))) {
    const type = typeOf(comparison.newer, now[name])
    if (envelope) reportAt(name, 'RESPONSE_ENVELOPE_CHANGED', ABSENT, name)
    else if (place.direction === 'response') reportAt(name, 'RESPONSE_FIELD_ADDED', ABSENT, `${name} (${type})`)
    else if (nowRequired.has(name))
      reportAt(name, 'REQUEST_FIELD_REQUIRED_ADDED', ABSENT, `${name} (${type}, required)`)
    else reportAt(name, 'REQUEST_FIELD_ADDED', ABSENT, `${name} (${type})`)
  }
  for (const name of Object.keys(was).filter((name) => name in now)) {
    const required = [wasRequired.has(name), nowRequired.has(name)]
    if (place.direction === 'request' && !required[0] && required[1]) {
      reportAt(name, 'REQUEST_FIELD_BECAME_REQUIRED', 'optional', 'required')
    } else if (place.direction === 'request' && required[0] && !required[1]) {
      reportAt(name, 'REQUEST_CONSTRAINT_RELAXED', 'required', 'optional')
    } else if (place.direction === 'response' && required[0] && !required[1]) {
      reportAt(name, 'RESPONSE_FIELD_BECAME_OPTIONAL', 'always present', 'may be absent')
    }
    compareSchemas(comparison, at(name), was[name], now[name])
  }
}

/**
 * A property gone and another new with the same type in the same object
 * read as a rename (one finding naming both), when the pairing is unambiguous.
 */
function pairRenames(
  comparison: OperationComparison,
  removed: readonly string[],
  added: readonly string[],
  was: OpenApiNode,
  now: OpenApiNode,
): Map<string, string> {
  const renames = new Map<string, string>()
  for (const from of removed) {
    const type = shapeOf(comparison.older, was[from]).type
    const sameType = (name: string) => shapeOf(comparison.newer, now[name]).type === type
    const candidates = added.filter(sameType)
    const rivals = removed.filter((name) => shapeOf(comparison.older, was[name]).type === type)
    if (candidates.length === 1 && rivals.length === 1) renames.set(from, candidates[0]!)
  }
  return renames
}

function child(place: SchemaPlace, segment: string): SchemaPlace {
  const field = segment === '[]' ? `${place.field}[]` : place.field === '' ? segment : `${place.field}.${segment}`
  return { ...place, field, key: `${place.key}/${segment}` }
}

/** `title` of `data[].title`; the whole field for a body-level place. */
function leafName(field: string): string {
  return field.replaceAll('[]', '').split('.').at(-1) ?? ''
}
