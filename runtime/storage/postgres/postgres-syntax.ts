import { sql } from 'kysely'
import { CAPITAL_I_WITH_DOT, FINAL_SIGMA, SIGMA, SMALL_I } from '../fold-case.js'
import type { ColumnDefinition } from '../../contract/table-definition.js'
import type { DialectSyntax } from '../storage-dialect.js'

/**
 * PostgreSQL's list-query SQL. Strings are compared with `COLLATE "C"` (code
 * point order, as SQLite's BINARY) instead of the database's locale, and
 * nullable columns are indexed `NULLS FIRST`, the order list queries sort in,
 * so an index on `(column, id)` serves both directions of a keyset walk.
 *
 * A list placeholder is bound as one array parameter and matched with
 * `= any(...)`; PostgreSQL infers the array's element type from the column.
 */
export const postgresSyntax: DialectSyntax = {
  compared,
  equated,
  inList: (column, list) => sql<boolean>`${equated(column)} = any(${list})`,
  // Not ILIKE, nor lower() under the database's collation: what they fold depends on its locale.
  likeInsensitive: (column, pattern) =>
    sql<boolean>`${foldCase(sql.ref(column.name))} like ${foldCase(pattern)} escape '\\'`,
  indexColumn: (column) => (column.nullable ? sql`${compared(column)} nulls first` : compared(column)),
  // pg serializes a JS array as an array literal.
  bindList: (values) => values,
  decimalAggregate: (fn, column) => {
    const sum = sql`sum(${sql.ref(column.name)})`
    if (fn === 'sum') return sql<string>`cast(${sum} as text)`
    // NUMERIC's avg() divides to a scale of its choosing, which a second rounding could round wrong:
    // round(sum / count) in whole units of the last digit instead (as decimal-sum.ts), then scale back exactly.
    const scale = column.scale ?? 0
    const units = sql.raw(`1${'0'.repeat(scale)}`)
    const unit = sql.raw(scale === 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`)
    const count = sql`count(${sql.ref(column.name)})`
    return sql<string>`cast(sign(${sum}) * div(abs(${sum}) * ${units} * 2 + ${count}, 2 * ${count}) * ${unit} as text)`
  },
  // sum() of a bigint is a numeric: exact at any size.
  integerSum: (column) => sql`cast(sum(${sql.ref(column.name)}) as text)`,
  readIntegerSum: (value) => String(value),
  perValueCap: { kind: 'window' },
}

/**
 * The ICU collation for the root locale, predefined by every PostgreSQL built
 * with ICU: its lower() is Unicode's default lowercase mapping, as JS
 * toLowerCase, whatever the database's own locale (under `C` lower() folds
 * ASCII only; under a libc locale, what that locale's tables say).
 */
export const ROOT_COLLATION = 'und-x-icu'

/** fold-case.ts's foldCase, in SQL. */
function foldCase(text: unknown) {
  const dotless = sql`replace(${text}, ${sql.lit(CAPITAL_I_WITH_DOT)}, ${sql.lit(SMALL_I)})`
  return sql`replace(lower(${dotless} collate ${sql.id(ROOT_COLLATION)}), ${sql.lit(FINAL_SIGMA)}, ${sql.lit(SIGMA)})`
}

function compared(column: ColumnDefinition) {
  return column.type === 'string' ? sql`${sql.ref(column.name)} collate "C"` : sql.ref(column.name)
}

// Equality is the same under any deterministic collation; a unique column's constraint index uses the database's.
function equated(column: ColumnDefinition) {
  return column.unique ? sql.ref(column.name) : compared(column)
}
