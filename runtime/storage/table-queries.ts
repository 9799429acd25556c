import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely'
import { SOFT_DELETE_FIELD } from '../contract/field-type.js'
import type { DeletedVisibility } from '../contract/query-rules.js'
import type { ColumnDefinition, ReferenceDefinition, TableDefinition } from '../contract/table-definition.js'
import { listParameter, parameter } from './query-parameter.js'
import type { RestrictCheck } from './collect-restrict-checks.js'
import { buildKeysetCondition } from './keyset-condition.js'
import type { AggregateShape, ListShape, ShapedFilter } from './list-shape.js'
import type { ColumnTypeMapping } from './column-type-mapping.js'
import type { LinkTable } from './storage.js'
import type { DialectSyntax } from './storage-dialect.js'

/**
 * The SQL shapes KyselyStorage runs, one builder per shape. Values are always
 * placeholders (see query-parameter.ts), named by the helpers below, so each
 * shape compiles once and is cached by the caller.
 */

// Placeholder names: `value:<column>` for written values, `row:<column>` for row filter conditions,
// `filter:<index>` for the value of the index-th filter, `hop:<index>.<hop>:<column>` for the row filter of
// a table it passes (hopRowFilterName), `after:<index>` (keyset-condition.ts)
// for the keyset position, `values` for findWhereIn's list and `per-value` for its cap.
export const ID = 'id'
export const LIMIT = 'limit'
export const OFFSET = 'offset'
export const VALUES = 'values'
export const PER_VALUE = 'per-value'
/** The id a purge batch starts after. */
export const PURGE_AFTER = 'purge-after'
/** Underscore-led, which no field name can be (manifest.schema.json), so it never shadows a column. */
const RANK = '_restmint_rank'
/** The member of buildLinkedQuery's rows holding the id each is linked to. */
export const LINK_OWNER = '_restmint_owner'
const LINK_ALIAS = '_restmint_link'
const HOP_ALIAS = '_restmint_r'
/** perValueCap's `limit-per-value`: the list's values, and the rows each value's subquery picks from. */
const VALUE_ALIAS = '_restmint_value'
const CAP_ALIAS = '_restmint_capped'
/** What a placeholder for an id is bound as. */
const ID_COLUMN: ColumnDefinition = {
  name: ID,
  type: 'integer',
  nullable: false,
  unique: true,
  readOnly: true,
  default: null,
}
export const valueName = (column: string): string => `value:${column}`
export const rowFilterName = (column: string): string => `row:${column}`
export const filterName = (index: number): string => `filter:${index}`
/** The value of `column` in the row filter of a many-to-many's join rows (LinkTable.rowFilter). */
export const linkRowFilterName = (column: string): string => `link:${column}`
/** The value of `column` in the row filter of the `hop`-th table the `filter`-th filter passes (FilterHop.rowFilter). */
export const hopRowFilterName = (filter: number, hop: number, column: string): string =>
  `hop:${filter}.${hop}:${column}`
/** Result columns of buildAggregateQuery: each group's count, its grouping values and its aggregates, by position. */
export const COUNT = 'count'
export const groupAlias = (index: number): string => `g${index}`
export const aggregateAlias = (index: number): string => `a${index}`

type AnySelect = SelectQueryBuilder<any, any, any>

/** One row by id, within the row filter, every column; of a soft-deleting table, as `deleted` says. */
export function buildFindQuery(
  db: Kysely<any>,
  table: TableDefinition,
  rowFilter: readonly ColumnDefinition[],
  deleted: DeletedVisibility = 'exclude',
) {
  const visible = matchDeleted(table, deleted)
  return selectRows(db, table)
    .where(ID, '=', idParameter())
    .$if(rowFilter.length > 0, (query) => query.where(matchRowFilter(rowFilter)))
    .$if(visible !== null, (query) => query.where(visible!))
}

/**
 * Which rows of a soft-deleting table a statement sees: live ones
 * (`exclude`), deleted ones (`only`), or all (`include`, null: no
 * condition). Null on any other table.
 */
export function matchDeleted(table: TableDefinition, deleted: DeletedVisibility): Expression<SqlBool> | null {
  if (table.softDelete !== true || deleted === 'include') return null
  const column = sql.ref(SOFT_DELETE_FIELD)
  return deleted === 'exclude' ? sql<SqlBool>`${column} is null` : sql<SqlBool>`${column} is not null`
}

/**
 * How a row is locked until its transaction ends, on PostgreSQL: `update` for
 * a write that may delete it (`FOR UPDATE`), `no key update` for one that
 * changes it but not its id (`FOR NO KEY UPDATE`, the lock an UPDATE takes),
 * which a concurrent insert of a row referencing it does not wait for.
 */
export type RowLock = 'update' | 'no key update'

/**
 * buildFindQuery, locking the row until the transaction ends (`lock`; null on
 * SQLite, which has no row locks and needs none: its transactions begin
 * IMMEDIATE, holding the database's write lock).
 */
export function buildLockQuery(
  db: Kysely<any>,
  table: TableDefinition,
  rowFilter: readonly ColumnDefinition[],
  lock: RowLock | null,
) {
  const query = buildFindQuery(db, table, rowFilter)
  if (lock === null) return query
  return lock === 'update' ? query.forUpdate() : query.forNoKeyUpdate()
}

/**
 * A page of rows within the row filter and filters, in the order of `shape.keys`, after
 * OFFSET rows or, for keyset pagination, after the position given as
 * `after:<index>` values. NULLs sort first ascending and last descending on
 * every dialect: explicit `NULLS FIRST/LAST` on nullable columns; a NOT NULL
 * column gets none, so PostgreSQL can use plain indexes (primary key, unique,
 * foreign keys) for it as well.
 */
export function buildListQuery(db: Kysely<any>, syntax: DialectSyntax, table: TableDefinition, shape: ListShape) {
  const conditions = listConditions(db, syntax, table, shape, 'probe')
  if (shape.afterNulls !== undefined) conditions.push(buildKeysetCondition(syntax, shape.keys, shape.afterNulls))
  let query = selectRows(db, table).$if(conditions.length > 0, (select) => select.where((eb) => eb.and(conditions)))
  for (const { column, direction } of shape.keys) {
    query = query.orderBy(syntax.compared(column), (order) => {
      if (direction === 'asc') return column.nullable ? order.asc().nullsFirst() : order.asc()
      return column.nullable ? order.desc().nullsLast() : order.desc()
    })
  }
  query = query.limit(integerParameter(LIMIT))
  return shape.afterNulls === undefined ? query.offset(integerParameter(OFFSET)) : query
}

/**
 * One page of groups of the rows within the row filter and filters (the
 * list's conditions, listConditions): `count` and each aggregate (`a0`,
 * `a1`… in the shape's order) per combination of the grouping columns
 * (`g0`, `g1`…), ordered by them as lists sort (NULL first), after the
 * keyset position of the last group already seen (`after:<index>`: grouping
 * values identify a group, so no id is needed), LIMIT groups. No grouping
 * columns: one group of every matching row, even when there is none.
 */
export function buildAggregateQuery(
  db: Kysely<any>,
  syntax: DialectSyntax,
  columnTypes: ColumnTypeMapping,
  table: TableDefinition,
  shape: AggregateShape,
) {
  // Soft-deleted rows are never aggregated: an aggregate counts what a list shows.
  const conditions = listConditions(db, syntax, table, { ...shape, deleted: 'exclude' })
  if (shape.afterNulls !== undefined) conditions.push(buildKeysetCondition(syntax, shape.keys, shape.afterNulls))
  let query = db
    .selectFrom(table.name)
    .select(shape.keys.map(({ column }, index) => sql.ref(column.name).as(groupAlias(index))))
    .select(sql<number>`count(*)`.as(COUNT))
    .select(
      shape.aggregates.map(({ column, fn, kind }, index) => {
        // min and max as lists sort (strings by code point on every dialect); sums and averages of the plain column.
        const argument = kind === 'column' ? syntax.compared(column) : sql.ref(column.name)
        const computed = sql`${sql.raw(fn)}(${argument})`
        if (kind === 'column') return computed.as(aggregateAlias(index))
        if (column.type === 'decimal' && (fn === 'sum' || fn === 'avg'))
          return syntax.decimalAggregate(fn, column).as(aggregateAlias(index))
        if (column.type === 'integer' && fn === 'sum') return syntax.integerSum(column).as(aggregateAlias(index))
        const type = kind === 'exact' ? columnTypes.sqlTypes.string : columnTypes.sqlTypes.number
        return sql`cast(${computed} as ${sql.raw(type)})`.as(aggregateAlias(index))
      }),
    )
    .$if(conditions.length > 0, (select) => select.where((eb) => eb.and(conditions)))
  if (shape.keys.length === 0) return query
  query = query.groupBy(shape.keys.map(({ column }) => sql.ref(column.name)))
  for (const { column } of shape.keys) {
    query = query.orderBy(syntax.compared(column), (order) =>
      column.nullable ? order.asc().nullsFirst() : order.asc(),
    )
  }
  return query.limit(integerParameter(LIMIT))
}

/** `total`: the number of rows within the row filter and filters. */
export function buildCountQuery(db: Kysely<any>, syntax: DialectSyntax, table: TableDefinition, shape: ListShape) {
  const conditions = listConditions(db, syntax, table, shape)
  return db
    .selectFrom(table.name)
    .select((eb) => eb.fn.countAll().as('total'))
    .$if(conditions.length > 0, (query) => query.where((eb) => eb.and(conditions)))
}

/**
 * The rows within the row filter and filters, unordered: the statement whose
 * row estimate (StorageDialect.estimateRows) stands for `total` under
 * `count=estimated`.
 */
export function buildMatchingQuery(db: Kysely<any>, syntax: DialectSyntax, table: TableDefinition, shape: ListShape) {
  const conditions = listConditions(db, syntax, table, shape)
  return db
    .selectFrom(table.name)
    .select(ID)
    .$if(conditions.length > 0, (query) => query.where((eb) => eb.and(conditions)))
}

/**
 * Rows whose `column` holds one of the `values` list placeholder, by id: one
 * statement for any number. `capped` keeps only the first `per-value` rows (by
 * id) of each value, still in one statement, as the dialect caps best
 * (DialectSyntax.perValueCap).
 */
export function buildWhereInQuery(
  db: Kysely<any>,
  syntax: DialectSyntax,
  table: TableDefinition,
  column: ColumnDefinition,
  capped: boolean,
  rowFilter: readonly ColumnDefinition[],
) {
  // Includes embed live rows only: a soft-deleted one is gone for every read that does not ask for it.
  const live = matchDeleted(table, 'exclude')
  const cap = syntax.perValueCap
  if (capped && cap.kind === 'limit-per-value') {
    const firstOfValue = db
      .selectFrom(`${table.name} as ${CAP_ALIAS}`)
      .select(`${CAP_ALIAS}.${ID}`)
      .where(sql.ref(`${CAP_ALIAS}.${column.name}`), '=', sql.ref(`${VALUE_ALIAS}.value`))
      .$if(live !== null, (query) => query.where(sql.ref(`${CAP_ALIAS}.${SOFT_DELETE_FIELD}`), 'is', null))
      .$if(rowFilter.length > 0, (query) => query.where(matchRowFilter(rowFilter, CAP_ALIAS)))
      .orderBy(`${CAP_ALIAS}.${ID}`)
      .limit(integerParameter(PER_VALUE))
    return (
      db
        .selectFrom(cap.listRows(listParameter(VALUES, column.type, column.name)).as(VALUE_ALIAS))
        // CROSS JOIN: SQLite keeps the list's values as the outer loop, so each value's subquery runs once.
        .crossJoin(table.name)
        .where(sql<SqlBool>`${sql.ref(`${table.name}.${ID}`)} in ${firstOfValue}`)
        .select(columnNames(table).map((name) => `${table.name}.${name}`))
        .orderBy(`${table.name}.${ID}`)
    )
  }
  const rows = selectRows(db, table)
    .where(syntax.inList(column, listParameter(VALUES, column.type, column.name)))
    .$if(rowFilter.length > 0, (query) => query.where(matchRowFilter(rowFilter)))
    .$if(live !== null, (query) => query.where(live!))
  if (!capped) return rows.orderBy(ID)
  const ranked = rows.select(
    sql<number>`row_number() over (partition by ${sql.ref(column.name)} order by ${sql.ref(ID)})`.as(RANK),
  )
  return db
    .selectFrom(ranked.as('ranked'))
    .select(columnNames(table))
    .where(sql.ref(RANK), '<=', integerParameter(PER_VALUE))
    .orderBy(ID)
}

/**
 * How a filter across relations is written (acrossRelations): `probe`, a correlated EXISTS per row, which a
 * page (ORDER BY … LIMIT) stops probing once it has its rows; `set`, an uncorrelated `key IN (SELECT …)`,
 * which works out the matching keys once: what a count or a grouping over every matching row needs. On
 * SQLite, the set form of a first page without a count sorted every tagged post (22 ms) where the probe took
 * 0.2 ms; the probe form of a count took ~10x the set form.
 */
type SemiJoin = 'probe' | 'set'

function listConditions(
  db: Kysely<any>,
  syntax: DialectSyntax,
  table: TableDefinition,
  shape: Pick<ListShape, 'rowFilter' | 'filters' | 'deleted'>,
  semiJoin: SemiJoin = 'set',
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = shape.rowFilter.map(
    (column) =>
      sql<SqlBool>`${sql.ref(column.name)} = ${parameter(rowFilterName(column.name), column.type, column.name)}`,
  )
  const visible = matchDeleted(table, shape.deleted)
  if (visible !== null) conditions.push(visible)
  shape.filters.forEach((filter, index) =>
    conditions.push(
      acrossRelations(db, table.name, filter.through, index, matchFilter(syntax, filter, index), semiJoin),
    ),
  )
  return conditions
}

/**
 * `condition` (of the `filter`-th filter) tested on the rows at the end of
 * `through`: one semi-join per table passed (SemiJoin: EXISTS or `key IN
 * (SELECT …)`), never a join, so a row never repeats however many related
 * rows match. Each table is aliased (`_restmint_r1`…) so that a table met
 * again (a relation to itself) never shadows the one before; inside the
 * innermost subquery only the last table is in scope, so the condition's
 * unqualified columns are its. Only the rows within each table's row filter
 * (the rows the caller may read) lead on; a table none of whose rows does
 * makes the filter match nothing.
 */
function acrossRelations(
  db: Kysely<any>,
  outer: string,
  through: ShapedFilter['through'],
  filter: number,
  condition: Expression<SqlBool>,
  semiJoin: SemiJoin,
): Expression<SqlBool> {
  if (through.some((hop) => hop.rowFilter === null)) return sql<SqlBool>`1 = 0`
  let tested = condition
  for (let index = through.length - 1; index >= 0; index--) {
    const hop = through[index]!
    const alias = `${HOP_ALIAS}${index + 1}`
    const previous = sql.ref(`${index === 0 ? outer : `${HOP_ALIAS}${index}`}.${hop.outerColumn}`)
    const key = sql.ref(`${alias}.${hop.column}`)
    const rowFilter = hop.rowFilter ?? []
    // Built, not raw SQL: the PostgreSQL storage's schema applies to the tables the query builder names.
    // Kysely parenthesizes the subquery itself.
    const related = db
      .selectFrom(`${hop.table} as ${alias}`)
      .where(tested)
      .$if(hop.live === true, (query) => query.where(sql.ref(`${alias}.${SOFT_DELETE_FIELD}`), 'is', null))
      .$if(rowFilter.length > 0, (query) =>
        query.where(matchRowFilter(rowFilter, alias, (column) => hopRowFilterName(filter, index, column))),
      )
    tested =
      semiJoin === 'probe'
        ? sql<SqlBool>`exists ${related.select(sql.lit(1).as('one')).where(key, '=', previous)}`
        : sql<SqlBool>`${previous} in ${related.select(key.as('key'))}`
  }
  return tested
}

/**
 * The rows of `table` linked through `link` to one of the `values` list
 * placeholder, each with the id it is linked to as LINK_OWNER, by owner then
 * id; `capped` keeps the first `per-value` of each owner (as buildWhereInQuery).
 * Only live rows, through live links: a soft-deleted join row is an unlinked pair.
 */
export function buildLinkedQuery(
  db: Kysely<any>,
  syntax: DialectSyntax,
  table: TableDefinition,
  link: LinkTable,
  capped: boolean,
  rowFilter: readonly ColumnDefinition[],
  linkRowFilter: readonly ColumnDefinition[],
  pairUnique: boolean,
) {
  const cap = syntax.perValueCap
  if (capped && cap.kind === 'limit-per-value') {
    const target = `${LINK_ALIAS}.${link.targetColumn}`
    // The join's foreign key keeps every target it names (SqliteDriver's connections enforce foreign keys,
    // and a migration checks them before it commits): only a condition on the target needs it joined. An
    // optional relation's NULL names none.
    const joinTarget = table.softDelete === true || rowFilter.length > 0
    const firstOfOwner = (
      joinTarget
        ? linkedRows(db, table, `${table.name} as ${CAP_ALIAS}`, CAP_ALIAS, link, rowFilter, linkRowFilter)
        : liveLinks(db, link, linkRowFilter).where(sql.ref(target), 'is not', null)
    )
      .select(target)
      // A pair linked twice (a join without a unique pair) is one record: it takes one place under the cap.
      .$if(!pairUnique, (query) => query.distinct())
      .where(sql.ref(`${LINK_ALIAS}.${link.column}`), '=', sql.ref(`${VALUE_ALIAS}.value`))
      .orderBy(target)
      .limit(integerParameter(PER_VALUE))
    return (
      db
        .selectFrom(cap.listRows(listParameter(VALUES, 'integer', link.column)).as(VALUE_ALIAS))
        // CROSS JOIN: SQLite keeps the list's values as the outer loop, so each value's subquery runs once.
        .crossJoin(table.name)
        .where(sql<SqlBool>`${sql.ref(`${table.name}.${ID}`)} in ${firstOfOwner}`)
        .select(columnNames(table).map((name) => `${table.name}.${name}`))
        .select(sql.ref(`${VALUE_ALIAS}.value`).as(LINK_OWNER))
        .orderBy(LINK_OWNER)
        .orderBy(`${table.name}.${ID}`)
    )
  }
  const owner = `${LINK_ALIAS}.${link.column}`
  // Qualified, as both tables are in scope: the list's column is the join's, the row filter's the target's.
  const ownerColumn: ColumnDefinition = { ...ID_COLUMN, name: owner }
  const rows = linkedRows(db, table, table.name, table.name, link, rowFilter, linkRowFilter)
    .select(columnNames(table).map((name) => `${table.name}.${name}`))
    .select(sql.ref(owner).as(LINK_OWNER))
    .where(syntax.inList(ownerColumn, listParameter(VALUES, 'integer', link.column)))
  // A pair linked twice is one record (as the link list shows it): DISTINCT, and ranked densely, so that
  // both its rows share a rank and take one place under the cap.
  if (!capped) return rows.distinct().orderBy(LINK_OWNER).orderBy(`${table.name}.${ID}`)
  const ranked = rows.select(
    sql<number>`dense_rank() over (partition by ${sql.ref(owner)} order by ${sql.ref(`${table.name}.${ID}`)})`.as(RANK),
  )
  return db
    .selectFrom(ranked.as('ranked'))
    .select([...columnNames(table), LINK_OWNER])
    .distinct()
    .where(sql.ref(RANK), '<=', integerParameter(PER_VALUE))
    .orderBy(LINK_OWNER)
    .orderBy(ID)
}

/**
 * The join table (as LINK_ALIAS) joined to the live, row-filtered rows of
 * `table` (`from`, known in the query as `alias`) it links to, through its
 * live rows within `linkRowFilter`; nothing selected yet.
 */
function linkedRows(
  db: Kysely<any>,
  table: TableDefinition,
  from: string,
  alias: string,
  link: LinkTable,
  rowFilter: readonly ColumnDefinition[],
  linkRowFilter: readonly ColumnDefinition[],
) {
  return liveLinks(db, link, linkRowFilter)
    .innerJoin(from, `${alias}.${ID}`, `${LINK_ALIAS}.${link.targetColumn}`)
    .$if(table.softDelete === true, (query) => query.where(sql.ref(`${alias}.${SOFT_DELETE_FIELD}`), 'is', null))
    .$if(rowFilter.length > 0, (query) => query.where(matchRowFilter(rowFilter, alias)))
}

/** The join table's live rows (as LINK_ALIAS) within `linkRowFilter`; nothing selected yet. */
function liveLinks(db: Kysely<any>, link: LinkTable, linkRowFilter: readonly ColumnDefinition[]) {
  return db
    .selectFrom(`${link.table} as ${LINK_ALIAS}`)
    .$if(link.live === true, (query) => query.where(sql.ref(`${LINK_ALIAS}.${SOFT_DELETE_FIELD}`), 'is', null))
    .$if(linkRowFilter.length > 0, (query) => query.where(matchRowFilter(linkRowFilter, LINK_ALIAS, linkRowFilterName)))
}

/**
 * One filter. Range comparisons use the dialect's compared form of the column,
 * like the sort, so string ranges agree across dialects; equality its equated
 * form, which its index serves (DialectSyntax). `ne` keeps NULLs (NULL is
 * not equal to the value); `gt`…`lte`, `in`, `contains` and `starts_with`
 * never match NULL.
 */
function matchFilter(syntax: DialectSyntax, filter: ShapedFilter, index: number): Expression<SqlBool> {
  const { column } = filter
  const compared = syntax.compared(column)
  const equated = syntax.equated(column)
  const value = parameter(filterName(index), column.type, column.name)
  switch (filter.operator) {
    case 'eq':
      return sql<SqlBool>`${equated} = ${value}`
    case 'ne':
      return column.nullable
        ? sql<SqlBool>`(${equated} <> ${value} or ${sql.ref(column.name)} is null)`
        : sql<SqlBool>`${equated} <> ${value}`
    case 'gt':
      return sql<SqlBool>`${compared} > ${value}`
    case 'gte':
      return sql<SqlBool>`${compared} >= ${value}`
    case 'lt':
      return sql<SqlBool>`${compared} < ${value}`
    case 'lte':
      return sql<SqlBool>`${compared} <= ${value}`
    case 'in':
      return syntax.inList(column, listParameter(filterName(index), column.type, column.name))
    case 'contains':
    case 'starts_with':
      return syntax.likeInsensitive(column, parameter(filterName(index), 'string', column.name))
    case 'null':
      return filter.isNull
        ? sql<SqlBool>`${sql.ref(column.name)} is null`
        : sql<SqlBool>`${sql.ref(column.name)} is not null`
  }
}

/** Inserts every given column and returns the stored row. */
export function buildInsertQuery(db: Kysely<any>, table: TableDefinition, columns: readonly ColumnDefinition[]) {
  return db
    .insertInto(table.name)
    .values(
      Object.fromEntries(
        columns.map((column) => [column.name, parameter(valueName(column.name), column.type, column.name)]),
      ),
    )
    .returning(columnNames(table))
}

/** Sets the given columns of one row by id, within the row filter, and returns the stored row. */
export function buildUpdateQuery(
  db: Kysely<any>,
  table: TableDefinition,
  columns: readonly ColumnDefinition[],
  rowFilter: readonly ColumnDefinition[],
) {
  return db
    .updateTable(table.name)
    .set(
      Object.fromEntries(
        columns.map((column) => [column.name, parameter(valueName(column.name), column.type, column.name)]),
      ),
    )
    .where(ID, '=', idParameter())
    .$if(rowFilter.length > 0, (query) => query.where(matchRowFilter(rowFilter)))
    .$if(table.softDelete === true, (query) => query.where(matchDeleted(table, 'exclude')!))
    .returning(columnNames(table))
}

/**
 * Stamps `deleted_at` (the `value:deleted_at` placeholder) on one live row
 * by id, within the row filter, returning its id: a soft delete. With
 * `restore`, clears it on one deleted row instead and returns the row.
 */
export function buildSoftDeleteQuery(
  db: Kysely<any>,
  table: TableDefinition,
  rowFilter: readonly ColumnDefinition[],
  restore: boolean,
) {
  return db
    .updateTable(table.name)
    .set(
      SOFT_DELETE_FIELD,
      restore ? sql`null` : parameter(valueName(SOFT_DELETE_FIELD), 'datetime', SOFT_DELETE_FIELD),
    )
    .where(ID, '=', idParameter())
    .$if(rowFilter.length > 0, (query) => query.where(matchRowFilter(rowFilter)))
    .where(matchDeleted(table, restore ? 'only' : 'exclude')!)
    .returning(restore ? columnNames(table) : [ID])
}

/**
 * Up to LIMIT ids of rows soft-deleted before `value:deleted_at`, after id
 * `after:0`, by id: the next batch a purge removes.
 */
export function buildPurgeBatchQuery(db: Kysely<any>, table: TableDefinition) {
  return db
    .selectFrom(table.name)
    .select(ID)
    .where(sql.ref(SOFT_DELETE_FIELD), '<', parameter(valueName(SOFT_DELETE_FIELD), 'datetime', SOFT_DELETE_FIELD))
    .where(ID, '>', parameter(PURGE_AFTER, 'integer', ID))
    .orderBy(ID)
    .limit(integerParameter(LIMIT))
}

/**
 * Deletes one row by id if it is still soft-deleted before `value:deleted_at`,
 * returning its id: a purge's delete, which a restore that committed since
 * the batch was read leaves alone.
 */
export function buildPurgeDeleteQuery(db: Kysely<any>, table: TableDefinition) {
  return buildDeleteQuery(db, table, []).where(
    sql.ref(SOFT_DELETE_FIELD),
    '<',
    parameter(valueName(SOFT_DELETE_FIELD), 'datetime', SOFT_DELETE_FIELD),
  )
}

/**
 * Deletes one row by id, within the row filter, returning its id; the database cascades
 * to `onDelete: cascade` references. Whether a row comes back is what tells
 * the caller it deleted one: a concurrent delete that committed first leaves
 * this one nothing to return, although an earlier existence check saw the row.
 */
export function buildDeleteQuery(db: Kysely<any>, table: TableDefinition, rowFilter: readonly ColumnDefinition[]) {
  return db
    .deleteFrom(table.name)
    .where(ID, '=', idParameter())
    .$if(rowFilter.length > 0, (query) => query.where(matchRowFilter(rowFilter)))
    .returning(ID)
}

/**
 * The id of one row of `table` by id, within the row filter: finds whether it
 * exists (with `live`, a soft-deleting table's deleted rows do not).
 */
export function buildExistsQuery(
  db: Kysely<any>,
  table: string,
  rowFilter: readonly ColumnDefinition[] = [],
  live: Expression<SqlBool> | null = null,
) {
  return db
    .selectFrom(table)
    .select(ID)
    .where(ID, '=', idParameter())
    .$if(rowFilter.length > 0, (query) => query.where(matchRowFilter(rowFilter)))
    .$if(live !== null, (query) => query.where(live!))
}

/**
 * `total`: how many rows of `check.restrict.table` point at a row that deleting
 * row `id` would remove, following the check's cascade path through subqueries.
 */
export function buildRestrictCountQuery(db: Kysely<any>, check: RestrictCheck) {
  const count = db.selectFrom(check.restrict.table).select((eb) => eb.fn.countAll().as('total'))
  return whereReachable(db, count, check.restrict.column, check.cascadePath)
}

/** Keeps rows whose `column` holds the id of a row reached from row `id` along `path`. */
function whereReachable(
  db: Kysely<any>,
  query: AnySelect,
  column: string,
  path: readonly ReferenceDefinition[],
): AnySelect {
  const last = path.at(-1)
  if (last === undefined) return query.where(column, '=', idParameter())
  const ids = whereReachable(db, db.selectFrom(last.table).select(ID), last.column, path.slice(0, -1))
  return query.where(column, 'in', ids)
}

function selectRows(db: Kysely<any>, table: TableDefinition) {
  return db.selectFrom(table.name).select(columnNames(table))
}

function columnNames(table: TableDefinition): string[] {
  return table.columns.map((column) => column.name)
}

function idParameter() {
  return parameter(ID, 'integer', ID)
}

/** A placeholder typed as the number it stands for, where Kysely insists on one (LIMIT, OFFSET). */
function integerParameter(name: string): Expression<number> {
  return sql<number>`${parameter(name, 'integer')}`
}

/**
 * The row filter's conditions; on the columns of `alias` when more than one table is in scope; each value
 * bound as `nameOf` names it (`row:<column>` unless told).
 */
function matchRowFilter(
  rowFilter: readonly ColumnDefinition[],
  alias?: string,
  nameOf: (column: string) => string = rowFilterName,
) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.and(
      rowFilter.map((column) =>
        eb(
          alias === undefined ? column.name : `${alias}.${column.name}`,
          '=',
          parameter(nameOf(column.name), column.type, column.name),
        ),
      ),
    )
}
