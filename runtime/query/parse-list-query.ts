import { COUNT_STRATEGIES, DEFAULT_COUNT_STRATEGY, type CountStrategy } from '../contract/count-strategy.js'
import { operandKindOf, type FilterOperator } from '../contract/filter-operator.js'
import { RESERVED_QUERY_NAMES } from '../contract/query-rules.js'
import type { Filter, SortKey } from '../storage/storage.js'
import type { ColumnDefinition, ColumnValue, TableDefinition } from '../contract/table-definition.js'
import type { CursorCodec } from './page-cursor.js'
import { parseQueryValue } from './parse-query-value.js'
import { resolveFilterPath, type FilterPath } from './resolve-filter-path.js'
import type { InvalidParam } from '../problems/problem-error.js'
import type { QueryRules } from '../contract/query-rules.js'

export interface ListQueryParameters {
  readonly page?: number
  readonly per_page: number
  readonly cursor?: string
  readonly count?: string
  readonly sort?: string
  readonly include?: string
  readonly filter?: Record<string, unknown>
  readonly [exactFilter: string]: unknown
}

export interface ParsedListQuery {
  /** Null on cursor requests. */
  readonly page: number | null
  readonly perPage: number
  readonly sort: SortKey[]
  readonly filters: Filter[]
  /** How to count: `count=`, else the resource's default on page requests and `none` on cursor requests. */
  readonly count: CountStrategy
  /** Keyset position from `cursor`, or null. */
  readonly after: ColumnValue[] | null
  /** Identifies the collection (route and parent), sort and filters: a cursor is only valid for the key it was made for. */
  readonly cursorKey: string
  readonly errors: InvalidParam[]
}

const RESERVED: ReadonlySet<string> = new Set(RESERVED_QUERY_NAMES)

/**
 * Interprets a collection query string (its names and page numbers already
 * checked by checkListQuery) against the resource's
 * rules: exact filters, `filter[field][op]`, `sort`, `cursor`. Every problem is
 * collected with the parameter it concerns. `collectionKey` names the
 * collection (route path and parent) that cursors are bound to.
 */
export function parseListQuery(
  query: ListQueryParameters,
  rawNames: readonly string[],
  table: TableDefinition,
  rules: QueryRules,
  collectionKey: string,
  cursors: CursorCodec,
  tables: ReadonlyMap<string, TableDefinition> = new Map(),
): ParsedListQuery {
  const errors: InvalidParam[] = []
  const filters = parseFilters(query, table, tables, rules, errors)
  const sort = parseSort(query.sort, rules, errors)
  const cursorKey = JSON.stringify([collectionKey, sort, filters])
  let after: ColumnValue[] | null = null
  if (query.cursor !== undefined) {
    if (rawNames.includes('page')) {
      errors.push({ in: 'query', name: 'page', detail: 'cannot be combined with cursor; use one pagination style' })
    }
    const keyColumns = [...sort.map((key) => columnOf(table, key.column)), columnOf(table, 'id')]
    after = cursors.decode(query.cursor, cursorKey, keyColumns.length)
    // Signed cursors come from this server; a position that does not fit its columns is from an older manifest.
    if (after && !after.every((value, index) => fitsColumn(value, keyColumns[index]!))) after = null
    if (!after && errors.length === 0) {
      errors.push({
        in: 'query',
        name: 'cursor',
        detail: 'is not a cursor this server issued for the same sort and filters; start again without it',
      })
    }
  }
  return {
    page: query.cursor === undefined ? (query.page ?? 1) : null,
    perPage: query.per_page,
    count: parseCount(query, rules, errors),
    sort,
    filters,
    after,
    cursorKey,
    errors,
  }
}

const STRATEGIES: ReadonlySet<string> = new Set(COUNT_STRATEGIES)

/** `count=`; without it, cursor requests count nothing (what a cursor saves) and page requests count as the resource says. */
function parseCount(query: ListQueryParameters, rules: QueryRules, errors: InvalidParam[]): CountStrategy {
  const given = query.count
  if (given === undefined) return query.cursor === undefined ? (rules.count ?? DEFAULT_COUNT_STRATEGY) : 'none'
  if (STRATEGIES.has(given)) return given as CountStrategy
  errors.push({ in: 'query', name: 'count', detail: `must be one of ${COUNT_STRATEGIES.join(', ')}` })
  return 'none'
}

/**
 * The exact (`?<field>=`) and operator (`filter[field][op]=`) filters of a
 * collection query, every problem collected in `errors`: what lists and
 * aggregates both take, so both select the same records.
 */
export function parseFilters(
  query: ListQueryParameters,
  table: TableDefinition,
  tables: ReadonlyMap<string, TableDefinition>,
  rules: QueryRules,
  errors: InvalidParam[],
): Filter[] {
  const pathOf = (field: string) => resolveFilterPath(table, tables, field)
  return [
    ...parseExactFilters(query, pathOf, rules, errors),
    ...parseOperatorFilters(query.filter, pathOf, rules, errors),
  ]
}

/** Where a filterable field is: a column of the listed table, or one across relations (resolveFilterPath). */
type FilterPathOf = (field: string) => FilterPath

function parseExactFilters(
  query: ListQueryParameters,
  pathOf: FilterPathOf,
  rules: QueryRules,
  errors: InvalidParam[],
): Filter[] {
  const filters: Filter[] = []
  for (const [name, raw] of Object.entries(query)) {
    if (RESERVED.has(name)) continue
    if (!filterOperators(rules, name)?.includes('eq')) continue
    const path = pathOf(name)
    const value = parseOne(name, raw, path.column, errors)
    if (value !== undefined) filters.push(filterOn(name, path, 'eq', value))
  }
  return filters
}

function parseOperatorFilters(
  filter: Record<string, unknown> | undefined,
  pathOf: FilterPathOf,
  rules: QueryRules,
  errors: InvalidParam[],
): Filter[] {
  if (filter === undefined) return []
  const filters: Filter[] = []
  for (const [field, operators] of Object.entries(filter)) {
    const allowed = filterOperators(rules, field)
    if (!allowed) {
      errors.push({
        in: 'query',
        name: `filter[${field}]`,
        detail: `is not filterable; filterable: ${describeFilters(rules)}`,
      })
      continue
    }
    if (typeof operators !== 'object' || operators === null || Array.isArray(operators)) {
      errors.push({
        in: 'query',
        name: `filter[${field}]`,
        detail: `needs an operator: filter[${field}][${allowed[0]}]=…; allowed: ${allowed.join(', ')}`,
      })
      continue
    }
    for (const [operator, raw] of Object.entries(operators)) {
      const name = `filter[${field}][${operator}]`
      if (!allowed.includes(operator as FilterOperator)) {
        errors.push({
          in: 'query',
          name,
          detail: `operator ${operator} is not allowed on ${field}; allowed: ${allowed.join(', ')}`,
        })
        continue
      }
      const path = pathOf(field)
      const value = parseOperand(name, operator as FilterOperator, raw, path.column, errors)
      if (value !== undefined) filters.push(filterOn(field, path, operator as FilterOperator, value))
    }
  }
  return filters
}

/** A field of the listed table filters its column; one across relations the column at the end of its path. */
function filterOn(field: string, path: FilterPath, operator: FilterOperator, value: Filter['value']): Filter {
  if (path.through.length === 0) return { column: field, operator, value }
  return { column: path.column.name, through: path.through, operator, value }
}

function parseOperand(
  name: string,
  operator: FilterOperator,
  raw: unknown,
  column: ColumnDefinition,
  errors: InvalidParam[],
): Filter['value'] | undefined {
  const kind = operandKindOf(operator)
  // Their operands are not values of the field: a boolean, and any text.
  if (kind === 'presence') return parseOne(name, raw, { type: 'boolean' }, errors)
  if (kind === 'text') return parseOne(name, raw, { type: 'string' }, errors)
  if (kind === 'value') return parseOne(name, raw, column, errors)
  if (kind === 'bound') return parseOne(name, raw, { type: column.type, format: column.format }, errors)
  if (typeof raw !== 'string' || raw === '') {
    errors.push({ in: 'query', name, detail: 'must be a comma-separated list of values' })
    return undefined
  }
  const values: ColumnValue[] = []
  for (const item of raw.split(',')) {
    const value = parseOne(name, item, column, errors)
    if (value === undefined) return undefined
    // The document declares the list's items unique.
    if (values.includes(value)) {
      errors.push({ in: 'query', name, detail: `lists ${JSON.stringify(item)} twice; give each value once` })
      return undefined
    }
    values.push(value)
  }
  return values
}

function parseOne(
  name: string,
  raw: unknown,
  column: Pick<ColumnDefinition, 'type' | 'enum' | 'format'>,
  errors: InvalidParam[],
): ColumnValue | undefined {
  if (typeof raw !== 'string') {
    errors.push({ in: 'query', name, detail: 'must be given once, as a single value' })
    return undefined
  }
  const parsed = parseQueryValue(raw, column)
  if ('problem' in parsed) {
    errors.push({ in: 'query', name, detail: `${parsed.problem}; got ${JSON.stringify(raw)}` })
    return undefined
  }
  return parsed.value
}

function parseSort(raw: string | undefined, rules: QueryRules, errors: InvalidParam[]): SortKey[] {
  if (raw === undefined) return []
  const keys: SortKey[] = []
  for (const part of raw.split(',')) {
    const descending = part.startsWith('-')
    const column = descending ? part.slice(1) : part
    const problem =
      column === ''
        ? 'has an empty key'
        : !rules.sortable.includes(column)
          ? `cannot sort by ${JSON.stringify(column)}`
          : keys.some((key) => key.column === column)
            ? `names ${column} twice`
            : null
    if (problem) {
      errors.push({
        in: 'query',
        name: 'sort',
        detail: `${problem}; sortable fields: ${rules.sortable.join(', ')} (prefix - for descending)`,
      })
      return []
    }
    keys.push({ column, direction: descending ? 'desc' : 'asc' })
  }
  return keys
}

/** Own entries only: a field named `__proto__` or `toString` is not filterable. */
function filterOperators(rules: QueryRules, field: string): readonly FilterOperator[] | undefined {
  return Object.hasOwn(rules.filters, field) ? rules.filters[field] : undefined
}

export function columnOf(table: TableDefinition, name: string): ColumnDefinition {
  const column = table.columns.find((candidate) => candidate.name === name)
  if (!column) throw new Error(`internal error: rules name ${name}, which ${table.name} does not have`)
  return column
}

/** Whether a keyset position value can be one of `column`'s: its JSON type, and null only where NULL is stored. */
export function fitsColumn(value: ColumnValue, column: ColumnDefinition): boolean {
  if (value === null) return column.nullable
  switch (column.type) {
    case 'integer':
      return Number.isSafeInteger(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'string':
    case 'date':
    case 'datetime':
    case 'decimal':
      return typeof value === 'string'
    case 'json':
    case 'array':
      // Never sortable, so never in a keyset position.
      return false
  }
}

function describeFilters(rules: QueryRules): string {
  const entries = Object.entries(rules.filters)
  return entries.length === 0
    ? 'none'
    : entries.map(([field, operators]) => `${field} (${operators.join(', ')})`).join(', ')
}
