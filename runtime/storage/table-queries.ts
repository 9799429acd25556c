import { sql, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely'
import type { ColumnDefinition, ReferenceDefinition, TableDefinition } from '../table-definition.js'
import { parameter } from './query-parameter.js'
import type { RestrictCheck } from './collect-restrict-checks.js'

/**
 * The SQL shapes KyselyStorage runs, one builder per shape. Values are always
 * placeholders (see query-parameter.ts), named by the helpers below, so each
 * shape compiles once and is cached by the caller.
 */

// Placeholder names: `value:<column>` for written values, `scope:<column>` for scope conditions.
export const ID = 'id'
export const LIMIT = 'limit'
export const OFFSET = 'offset'
export const valueName = (column: string): string => `value:${column}`
export const scopeName = (column: string): string => `scope:${column}`

type AnySelect = SelectQueryBuilder<any, any, any>

/** One row by id, within scope, every column. */
export function buildFindQuery(db: Kysely<any>, table: TableDefinition, scope: readonly ColumnDefinition[]) {
  return selectRows(db, table)
    .where(ID, '=', idParameter())
    .$if(scope.length > 0, (query) => query.where(matchScope(scope)))
}

/** A page of rows within scope, by id ascending. */
export function buildListQuery(db: Kysely<any>, table: TableDefinition, scope: readonly ColumnDefinition[]) {
  return selectRows(db, table)
    .$if(scope.length > 0, (query) => query.where(matchScope(scope)))
    .orderBy(ID)
    .limit(integerParameter(LIMIT))
    .offset(integerParameter(OFFSET))
}

/** `total`: the number of rows within scope. */
export function buildCountQuery(db: Kysely<any>, table: TableDefinition, scope: readonly ColumnDefinition[]) {
  return db
    .selectFrom(table.name)
    .select((eb) => eb.fn.countAll().as('total'))
    .$if(scope.length > 0, (query) => query.where(matchScope(scope)))
}

/** Inserts every given column and returns the stored row. */
export function buildInsertQuery(db: Kysely<any>, table: TableDefinition, columns: readonly ColumnDefinition[]) {
  return db
    .insertInto(table.name)
    .values(Object.fromEntries(columns.map((column) => [column.name, parameter(valueName(column.name), column.type)])))
    .returning(columnNames(table))
}

/** Sets the given columns of one row by id, within scope, and returns the stored row. */
export function buildUpdateQuery(
  db: Kysely<any>,
  table: TableDefinition,
  columns: readonly ColumnDefinition[],
  scope: readonly ColumnDefinition[],
) {
  return db
    .updateTable(table.name)
    .set(Object.fromEntries(columns.map((column) => [column.name, parameter(valueName(column.name), column.type)])))
    .where(ID, '=', idParameter())
    .$if(scope.length > 0, (query) => query.where(matchScope(scope)))
    .returning(columnNames(table))
}

/** Deletes one row by id; the database cascades to `onDelete: cascade` references. */
export function buildDeleteQuery(db: Kysely<any>, table: TableDefinition) {
  return db.deleteFrom(table.name).where(ID, '=', idParameter())
}

/** The id of one row of `table` by id, within scope: finds whether it exists. */
export function buildExistsQuery(db: Kysely<any>, table: string, scope: readonly ColumnDefinition[] = []) {
  return db
    .selectFrom(table)
    .select(ID)
    .where(ID, '=', idParameter())
    .$if(scope.length > 0, (query) => query.where(matchScope(scope)))
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
  return parameter(ID, 'integer')
}

/** A placeholder typed as the number it stands for, where Kysely insists on one (LIMIT, OFFSET). */
function integerParameter(name: string): Expression<number> {
  return sql<number>`${parameter(name, 'integer')}`
}

function matchScope(scope: readonly ColumnDefinition[]) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.and(scope.map((column) => eb(column.name, '=', parameter(scopeName(column.name), column.type))))
}
