import {
  FILTER_OPERATORS,
  isTextMatchOperator,
  type FilterOperator,
  type TextMatchOperator,
} from '../contract/filter-operator.js'
import type { ColumnDefinition, ColumnValue, TableDefinition } from '../contract/table-definition.js'
import type { AggregateTerm, Filter, FilterHop, SortKey } from './storage.js'
import type { AggregateFunction } from '../contract/aggregate-function.js'
import { aggregateResultKind, type AggregateResultKind } from '../contract/aggregate-result-kind.js'
import type { DeletedVisibility } from '../contract/query-rules.js'

/**
 * Everything about a list call that changes its SQL text, resolved against
 * the table once per shape (see the `*Key` functions, which name a shape
 * without resolving it, on every call).
 */
export interface ListShape {
  /** Row filter columns in name order. */
  readonly rowFilter: readonly ColumnDefinition[]
  /** In the caller's order; each one's value is bound as `filterName(index)`. */
  readonly filters: readonly ShapedFilter[]
  /** The sort keys, then `id` (see resolveSortKeys): a total order. */
  readonly keys: readonly ShapedSortKey[]
  /**
   * Keyset pagination: for each of `keys`, whether the cursor's value is null
   * (a NULL changes the SQL); undefined for offset pagination.
   */
  readonly afterNulls: readonly boolean[] | undefined
  /** Which rows of a soft-deleting table it sees (`exclude` on any other table: it has no deleted ones). */
  readonly deleted: DeletedVisibility
}

/**
 * Everything about an aggregate call that changes its SQL text: the list's
 * row filter and filters, the grouping columns as ascending keys (a group's
 * position is its grouping values), the aggregates in the caller's order.
 */
export interface AggregateShape extends Pick<ListShape, 'rowFilter' | 'filters' | 'keys' | 'afterNulls'> {
  readonly aggregates: readonly ShapedAggregate[]
}

export interface ShapedAggregate {
  readonly column: ColumnDefinition
  readonly fn: AggregateFunction
  readonly kind: AggregateResultKind
}

export interface ShapedFilter {
  readonly column: ColumnDefinition
  /** A filter across relations: the tables between the listed one and `column`'s (Filter.through). */
  readonly through: readonly ShapedHop[]
  readonly operator: FilterOperator
  /** For `null`: true for IS NULL, false for IS NOT NULL. */
  readonly isNull: boolean
}

/** One table a filter across relations passes (FilterHop), its row filter resolved. */
export interface ShapedHop extends Omit<FilterHop, 'rowFilter'> {
  /** FilterHop.rowFilter's columns in name order (none when absent); null when no row of the table leads on. */
  readonly rowFilter: readonly ColumnDefinition[] | null
}

export interface ShapedSortKey {
  readonly column: ColumnDefinition
  readonly direction: 'asc' | 'desc'
}

const OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS)

// ---------------------------------------------------------------- shape keys (every call: cheap, no resolving)

/** Names the SQL shape of `filters`: columns, operators, and IS NULL vs IS NOT NULL. */
export function filtersKey(filters: readonly Filter[]): string {
  let key = ''
  for (const filter of filters) {
    if (filter.through !== undefined) key += throughKey(filter.through)
    key +=
      filter.operator === 'null'
        ? `${filter.column} null=${String(filter.value)},`
        : `${filter.column} ${filter.operator},`
  }
  return key
}

/**
 * `post_tags.post_id=id>tags[owner_sub].id=tag_id>`: the tables a filter across relations passes, each with
 * its row filter's columns (`[-]` when no row leads on).
 */
function throughKey(through: readonly FilterHop[]): string {
  let key = ''
  for (const hop of through) {
    key += `${hop.table}${hop.live ? '(live)' : ''}${hopRowFilterKey(hop.rowFilter)}.${hop.column}=${hop.outerColumn}>`
  }
  return key
}

function hopRowFilterKey(rowFilter: FilterHop['rowFilter']): string {
  if (rowFilter === undefined) return ''
  if (rowFilter === null) return '[-]'
  const names = Object.keys(rowFilter)
  if (names.length === 0) return ''
  return `[${names.length > 1 ? names.sort().join(',') : names[0]}]`
}

/** Names the SQL shape of `sort`. */
export function sortKey(sort: readonly SortKey[]): string {
  let key = ''
  for (const { column, direction } of sort) key += `${direction === 'desc' ? '-' : '+'}${column},`
  return key
}

/** Names the SQL shape of a keyset position: which of its values are null. */
export function afterKey(after: readonly ColumnValue[]): string {
  let key = 'after:'
  for (const value of after) key += value === null ? 'n' : 'v'
  return key
}

// ---------------------------------------------------------------- resolving (once per shape)

export function resolveFilters(
  table: TableDefinition,
  columns: ReadonlyMap<string, ColumnDefinition>,
  filters: readonly Filter[],
  columnsOf: (table: string) => ReadonlyMap<string, ColumnDefinition>,
): ShapedFilter[] {
  return filters.map((filter) => {
    const through = filter.through ?? []
    const last = through.at(-1)
    const column = last
      ? resolveColumn({ name: last.table }, columnsOf(last.table), filter.column, 'filter')
      : resolveColumn(table, columns, filter.column, 'filter')
    if (!OPERATORS.has(filter.operator)) throw new Error(`unknown filter operator "${filter.operator}"`)
    if (filter.operator === 'null' && typeof filter.value !== 'boolean') {
      throw new Error(`filter "${table.name}.${filter.column} null" takes true or false`)
    }
    if (isTextMatchOperator(filter.operator) && column.type !== 'string') {
      throw new Error(
        `filter operator "${filter.operator}" needs a string column, not "${table.name}.${filter.column}"`,
      )
    }
    return {
      column,
      through: through.map((hop) => resolveHop(hop, columnsOf(hop.table))),
      operator: filter.operator,
      isNull: filter.value === true,
    }
  })
}

function resolveHop(hop: FilterHop, columns: ReadonlyMap<string, ColumnDefinition>): ShapedHop {
  const { rowFilter, ...rest } = hop
  if (rowFilter === null) return { ...rest, rowFilter: null }
  const names = Object.keys(rowFilter ?? {}).sort()
  return { ...rest, rowFilter: names.map((name) => resolveColumn({ name: hop.table }, columns, name, 'row filter')) }
}

/**
 * The sort keys followed by `id` in the direction of the last key (ascending
 * when there is none). A key on `id` already makes the order total, so the
 * keys end there and no `id` is added.
 */
export function resolveSortKeys(
  table: TableDefinition,
  columns: ReadonlyMap<string, ColumnDefinition>,
  sort: readonly SortKey[],
): ShapedSortKey[] {
  const keys: ShapedSortKey[] = []
  for (const key of sort) {
    if (key.direction !== 'asc' && key.direction !== 'desc')
      throw new Error(`unknown sort direction "${key.direction}"`)
    keys.push({ column: resolveColumn(table, columns, key.column, 'sort'), direction: key.direction })
    if (key.column === 'id') return keys
  }
  keys.push({ column: resolveColumn(table, columns, 'id', 'sort'), direction: sort.at(-1)?.direction ?? 'asc' })
  return keys
}

/** The grouping columns as ascending sort keys, and each aggregate with its result kind. */
export function resolveAggregateTerms(
  table: TableDefinition,
  columns: ReadonlyMap<string, ColumnDefinition>,
  groupBy: readonly string[],
  aggregates: readonly AggregateTerm[],
): Pick<AggregateShape, 'keys' | 'aggregates'> {
  return {
    keys: groupBy.map((name) => ({ column: resolveColumn(table, columns, name, 'group by'), direction: 'asc' })),
    aggregates: aggregates.map(({ column: name, fn }) => {
      const column = resolveColumn(table, columns, name, 'aggregate')
      return { column, fn, kind: aggregateResultKind(column.type, fn) }
    }),
  }
}

/** Names the SQL shape of an aggregate call's grouping columns and aggregates. */
export function aggregateKey(groupBy: readonly string[], aggregates: readonly AggregateTerm[]): string {
  return `${groupBy.join(',')}|${aggregates.map(({ column, fn }) => `${fn}(${column})`).join(',')}`
}

function resolveColumn(
  table: Pick<TableDefinition, 'name'>,
  columns: ReadonlyMap<string, ColumnDefinition>,
  name: string,
  use: string,
): ColumnDefinition {
  const column = columns.get(name)
  if (column === undefined) throw new Error(`${use} names unknown column "${table.name}.${name}"`)
  return column
}

// ---------------------------------------------------------------- values

/** A LIKE pattern matching `value` literally (`%`, `_` and `\` escaped with `\`), anywhere or at the start. */
export function likePattern(value: unknown, operator: TextMatchOperator): string {
  if (typeof value !== 'string') throw new Error(`filter operator "${operator}" takes a string`)
  const escaped = value.replace(/[\\%_]/g, '\\$&')
  return operator === 'contains' ? `%${escaped}%` : `${escaped}%`
}
