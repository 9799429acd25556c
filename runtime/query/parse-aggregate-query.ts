import type { AggregateFunction, AggregateRules } from '../contract/aggregate-function.js'
import type { QueryRules } from '../contract/query-rules.js'
import type { ColumnValue, TableDefinition } from '../contract/table-definition.js'
import type { InvalidParam } from '../problems/problem-error.js'
import type { AggregateTerm, Filter } from '../storage/storage.js'
import type { CursorCodec } from './page-cursor.js'
import { columnOf, fitsColumn, parseFilters, type ListQueryParameters } from './parse-list-query.js'

export interface ParsedAggregateQuery {
  /** Grouping fields in the request's order, which is the order groups are sorted by. */
  readonly groupBy: string[]
  /** The requested functions, by field in the request's order, each field's in the order given. */
  readonly aggregates: AggregateTerm[]
  readonly filters: Filter[]
  readonly perPage: number
  /** The grouping values of the last group already seen (`cursor`), or null. */
  readonly after: ColumnValue[] | null
  /** Binds cursors to the collection, grouping fields and filters. */
  readonly cursorKey: string
  readonly errors: InvalidParam[]
}

/**
 * Interprets an aggregates query (names and `per_page` already checked)
 * against the resource's aggregate whitelist: `group_by=a,b`,
 * `aggregate[field]=fn,fn`, the list's filters, `cursor`. Every problem is
 * collected with the parameter it concerns and the allowed values.
 */
export function parseAggregateQuery(
  query: ListQueryParameters,
  table: TableDefinition,
  rules: QueryRules & { readonly aggregate: AggregateRules },
  collectionKey: string,
  cursors: CursorCodec,
  tables: ReadonlyMap<string, TableDefinition>,
): ParsedAggregateQuery {
  const errors: InvalidParam[] = []
  const filters = parseFilters(query, table, tables, rules, errors)
  const groupBy = parseGroupBy(query.group_by, rules.aggregate, errors)
  const aggregates = parseAggregates(query.aggregate, rules.aggregate, errors)
  const cursorKey = JSON.stringify([collectionKey, groupBy, filters])
  let after: ColumnValue[] | null = null
  if (typeof query.cursor === 'string' && errors.length === 0) {
    const columns = groupBy.map((field) => columnOf(table, field))
    after = groupBy.length === 0 ? null : cursors.decode(query.cursor, cursorKey, columns.length)
    if (after && !after.every((value, index) => fitsColumn(value, columns[index]!))) after = null
    if (!after) {
      errors.push({
        in: 'query',
        name: 'cursor',
        detail: 'is not a cursor this server issued for the same group_by and filters; start again without it',
      })
    }
  }
  return { groupBy, aggregates, filters, perPage: query.per_page, after, cursorKey, errors }
}

function parseGroupBy(raw: unknown, rules: AggregateRules, errors: InvalidParam[]): string[] {
  if (raw === undefined) return []
  const allowed = `fields to group by: ${rules.groupBy.length > 0 ? rules.groupBy.join(', ') : 'none'}`
  if (typeof raw !== 'string') {
    errors.push({ in: 'query', name: 'group_by', detail: `takes a comma-separated list of fields; ${allowed}` })
    return []
  }
  const fields: string[] = []
  for (const field of raw.split(',')) {
    const problem =
      field === ''
        ? 'has an empty entry'
        : !rules.groupBy.includes(field)
          ? `cannot group by ${JSON.stringify(field)}`
          : fields.includes(field)
            ? `names ${field} twice`
            : null
    if (problem) {
      errors.push({ in: 'query', name: 'group_by', detail: `${problem}; ${allowed}` })
      return []
    }
    fields.push(field)
  }
  return fields
}

function parseAggregates(raw: unknown, rules: AggregateRules, errors: InvalidParam[]): AggregateTerm[] {
  if (raw === undefined) return []
  const entries = Object.entries(rules.functions)
  const allowed =
    entries.length === 0 ? 'none' : entries.map(([field, functions]) => `${field} (${functions.join(', ')})`).join(', ')
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push({
      in: 'query',
      name: 'aggregate',
      detail: `names its field in brackets: aggregate[<field>]=<function>,…; aggregatable: ${allowed}`,
    })
    return []
  }
  const terms: AggregateTerm[] = []
  for (const [field, value] of Object.entries(raw)) {
    const name = `aggregate[${field}]`
    const functions = Object.hasOwn(rules.functions, field) ? rules.functions[field]! : undefined
    if (functions === undefined) {
      errors.push({
        in: 'query',
        name,
        detail: `${JSON.stringify(field)} is not aggregatable; aggregatable: ${allowed}`,
      })
      continue
    }
    if (typeof value !== 'string') {
      errors.push({ in: 'query', name, detail: `takes a comma-separated list of functions: ${functions.join(', ')}` })
      continue
    }
    const chosen: AggregateFunction[] = []
    for (const fn of value.split(',')) {
      const problem = !functions.includes(fn as AggregateFunction)
        ? `${fn === '' ? 'has an empty entry' : `${JSON.stringify(fn)} is not available`}`
        : chosen.includes(fn as AggregateFunction)
          ? `names ${fn} twice`
          : null
      if (problem) {
        errors.push({ in: 'query', name, detail: `${problem}; functions of ${field}: ${functions.join(', ')}` })
        break
      }
      chosen.push(fn as AggregateFunction)
    }
    terms.push(...chosen.map((fn) => ({ column: field, fn })))
  }
  return terms
}
