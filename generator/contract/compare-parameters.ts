import type { ContractRuleId } from './contract-rules.js'
import { addOperationFinding, compareSchemas, type OperationComparison } from './compare-schemas.js'
import { asList, asNode, resolveNode, type OpenApiNode } from './openapi-node.js'

const FILTER_PARAMETER = /^filter\[([^\]]+)\]\[([^\]]+)\]$/
/** `aggregate[price]` of an aggregates route: named by its field, so a declared rename_field explains it. */
const AGGREGATE_PARAMETER = /^aggregate\[([^\]]+)\]$/

/**
 * Compares an operation's query parameters (path parameters are part of the
 * path): a plain parameter by presence, requirement and schema; `filter[f][op]`
 * by the operators each field has; `sort`, `include` and `group_by` by the
 * values they list.
 */
export function compareQueryParameters(
  comparison: OperationComparison,
  older: readonly unknown[],
  newer: readonly unknown[],
) {
  const was = parametersIn(comparison.older, older, 'query')
  const now = parametersIn(comparison.newer, newer, 'query')
  const report = (rule: ContractRuleId, name: string, subject: string, before: string, after: string) =>
    addOperationFinding(comparison, rule, { subject, name, before, after })
  for (const name of new Set([...was.keys(), ...now.keys()])) {
    const before = was.get(name)
    const after = now.get(name)
    const subject = `query parameter ${name}`
    if (name === 'sort' || name === 'include' || name === 'group_by') {
      compareListedValues(name, before, after, report)
      if (name === 'include' && before && after) compareParameterSchemas(comparison, name, name, before, after)
      continue
    }
    const filter = FILTER_PARAMETER.exec(name)
    const field = filter?.[1] ?? AGGREGATE_PARAMETER.exec(name)?.[1] ?? name
    if (filter && (before === undefined || after === undefined) && after?.node.required !== true) continue
    if (after === undefined) {
      report('QUERY_PARAMETER_REMOVED', field, subject, name, '(absent)')
    } else if (before === undefined) {
      const rule = after.node.required === true ? 'REQUEST_PARAMETER_REQUIRED_ADDED' : 'QUERY_PARAMETER_ADDED'
      report(rule, field, subject, '(absent)', name)
    } else {
      if (before.node.required !== true && after.node.required === true) {
        report('REQUEST_PARAMETER_BECAME_REQUIRED', field, subject, 'optional', 'required')
      }
      compareParameterSchemas(comparison, name, field, before, after)
    }
  }
  compareFilterOperators(was, now, report)
}

/** Filter operators gained or lost, one finding per field: `filter[price]: eq, gte → eq`. */
function compareFilterOperators(
  was: ReadonlyMap<string, Parameter>,
  now: ReadonlyMap<string, Parameter>,
  report: (rule: ContractRuleId, name: string, subject: string, before: string, after: string) => void,
) {
  const before = filterOperators(was)
  const after = filterOperators(now)
  for (const field of new Set([...before.keys(), ...after.keys()])) {
    const older = before.get(field) ?? []
    const newer = after.get(field) ?? []
    const describe = (operators: readonly string[]) => operators.join(', ') || '(none)'
    const subject = `filter[${field}]`
    if (older.some((operator) => !newer.includes(operator))) {
      report('FILTER_OPERATOR_REMOVED', field, subject, describe(older), describe(newer))
    } else if (newer.some((operator) => !older.includes(operator))) {
      report('FILTER_OPERATOR_ADDED', field, subject, describe(older), describe(newer))
    }
  }
}

/**
 * Compares an operation's header parameters (If-Match, If-None-Match) by
 * requirement only: a header clients must now send (`concurrency:
 * require_if_match`) breaks every client that does not; an optional one
 * changes nothing for them.
 */
export function compareHeaderParameters(
  comparison: OperationComparison,
  older: readonly unknown[],
  newer: readonly unknown[],
) {
  const was = parametersIn(comparison.older, older, 'header')
  for (const [name, after] of parametersIn(comparison.newer, newer, 'header')) {
    if (after.node.required !== true) continue
    const before = was.get(name)
    const subject = `header ${name}`
    if (before === undefined) {
      addOperationFinding(comparison, 'REQUEST_PARAMETER_REQUIRED_ADDED', {
        subject,
        name,
        before: '(absent)',
        after: `${name}, required`,
      })
    } else if (before.node.required !== true) {
      addOperationFinding(comparison, 'REQUEST_PARAMETER_BECAME_REQUIRED', {
        subject,
        name,
        before: 'optional',
        after: 'required',
      })
    }
  }
}

/** Field → its filter operators, in document order. */
function filterOperators(parameters: ReadonlyMap<string, Parameter>): Map<string, string[]> {
  const byField = new Map<string, string[]>()
  for (const [name, parameter] of parameters) {
    const filter = FILTER_PARAMETER.exec(name)
    if (filter === null || parameter.node.required === true) continue
    byField.set(filter[1]!, [...(byField.get(filter[1]!) ?? []), filter[2]!])
  }
  return byField
}

function compareParameterSchemas(
  comparison: OperationComparison,
  name: string,
  fieldName: string,
  before: Parameter,
  after: Parameter,
) {
  const place = {
    direction: 'request' as const,
    field: '',
    fieldName,
    describe: (field: string) => `query parameter ${name}${field}`,
    // A shared parameter component (per_page) changes once, not once per operation.
    key: before.pointer ?? `${comparison.operation}|query|${name}`,
    ...(name === 'per_page' ? { maximumRule: 'PER_PAGE_MAX_DECREASED' as const } : {}),
  }
  // sort and include values are compared as capabilities; only their other limits (include_max) here.
  const withoutValues = (schema: unknown) =>
    name === 'sort' || name === 'include' ? { ...asNode(schema), items: undefined } : schema
  compareSchemas(comparison, place, withoutValues(before.node.schema), withoutValues(after.node.schema))
}

/** Sort fields (`price` and `-price` are one) and include paths, as capabilities gained or lost. */
function compareListedValues(
  name: 'sort' | 'include' | 'group_by',
  before: Parameter | undefined,
  after: Parameter | undefined,
  report: (rule: ContractRuleId, name: string, subject: string, before: string, after: string) => void,
) {
  const was = listedValues(before)
  const now = listedValues(after)
  const [removedRule, addedRule] =
    name === 'sort'
      ? (['SORT_FIELD_REMOVED', 'SORT_FIELD_ADDED'] as const)
      : name === 'include'
        ? (['INCLUDE_PATH_REMOVED', 'INCLUDE_PATH_ADDED'] as const)
        : (['QUERY_PARAMETER_REMOVED', 'QUERY_PARAMETER_ADDED'] as const)
  const subject = `query parameter ${name}`
  for (const value of was) if (!now.has(value)) report(removedRule, value, subject, `${name}=${value}`, '(absent)')
  for (const value of now) if (!was.has(value)) report(addedRule, value, subject, '(absent)', `${name}=${value}`)
}

function listedValues(parameter: Parameter | undefined): Set<string> {
  const values = asList(asNode(asNode(parameter?.node.schema).items).enum).filter((value) => typeof value === 'string')
  return new Set(values.map((value) => value.replace(/^-/, '')))
}

interface Parameter {
  readonly node: OpenApiNode
  readonly pointer: string | null
}

function parametersIn(
  document: OpenApiNode,
  parameters: readonly unknown[],
  where: 'query' | 'header',
): Map<string, Parameter> {
  const byName = new Map<string, Parameter>()
  for (const parameter of parameters) {
    const resolved = resolveNode(document, parameter)
    if (resolved.node.in === where && typeof resolved.node.name === 'string') byName.set(resolved.node.name, resolved)
  }
  return byName
}
