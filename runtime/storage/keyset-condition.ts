import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { ShapedSortKey } from './list-shape.js'
import { parameter } from './query-parameter.js'
import type { DialectSyntax } from './storage-dialect.js'

/** Placeholder of the keyset position's value for sort key `index`. */
export const afterName = (index: number): string => `after:${index}`

/**
 * The condition keeping the rows strictly after a keyset position in the order
 * `keys` sort by (the last key is `id`, so the order is total), where NULL
 * sorts before every value ascending and after every value descending.
 * `afterNulls[i]` says whether the position's value for key i is NULL: those
 * keys use IS NULL instead of a placeholder.
 *
 * In general, row r is after position p when, for some key i, r equals p on
 * every key before i and r is after p on key i:
 *
 *   (k0 after p0) OR (k0 = p0 AND k1 after p1) OR (k0 = p0 AND k1 = p1 AND id after p2) …
 *
 * with, per key:
 *   - ascending,  p non-null: `k > p` (NULLs sort before p, and `>` excludes them)
 *   - ascending,  p NULL:     `k IS NOT NULL` (every value sorts after NULL)
 *   - descending, p non-null: `k < p`, or `(k < p OR k IS NULL)` when k is nullable (NULLs sort last)
 *   - descending, p NULL:     nothing sorts after it, so the term is dropped
 *   - "equals": `k = p`, or `k IS NULL` when p is NULL
 * and a redundant bound on the first key ANDed in front (`k0 >= p0`, `k0 <= p0`
 * or `k0 IS NULL`) so an index on the first key can seek instead of scanning.
 *
 * When every key has the same direction and no NULL can sit at or after the
 * position (all ascending with non-null values, or all descending on NOT NULL
 * columns), this is exactly a row-value comparison, which both databases use
 * as an index range: `(k0, id) > (p0, p1)` / `(k0, id) < (p0, p1)`.
 */
export function buildKeysetCondition(
  syntax: DialectSyntax,
  keys: readonly ShapedSortKey[],
  afterNulls: readonly boolean[],
): Expression<SqlBool> {
  const first = keys[0]
  if (first === undefined) throw new Error('a keyset condition needs at least one sort key')
  const compared = keys.map((key) => syntax.compared(key.column))
  const plain = keys.map((key) => sql.ref(key.column.name))
  const values = keys.map((key, index) => parameter(afterName(index), key.column.type, key.column.name))

  const uniform = keys.every((key) => key.direction === first.direction)
  const nullFree = keys.every((key, index) => !afterNulls[index] && (key.direction === 'asc' || !key.column.nullable))
  if (uniform && nullFree) {
    const operator = sql.raw(first.direction === 'asc' ? '>' : '<')
    if (keys.length === 1) return sql<SqlBool>`${compared[0]} ${operator} ${values[0]}`
    return sql<SqlBool>`(${sql.join(compared)}) ${operator} (${sql.join(values)})`
  }

  const equal = (index: number): RawBuilder<SqlBool> =>
    afterNulls[index] ? sql`${plain[index]} is null` : sql`${compared[index]} = ${values[index]}`
  const after = (index: number): RawBuilder<SqlBool> | undefined => {
    const key = keys[index]!
    if (key.direction === 'asc') {
      return afterNulls[index] ? sql`${plain[index]} is not null` : sql`${compared[index]} > ${values[index]}`
    }
    if (afterNulls[index]) return undefined
    return key.column.nullable
      ? sql`(${compared[index]} < ${values[index]} or ${plain[index]} is null)`
      : sql`${compared[index]} < ${values[index]}`
  }

  const terms: RawBuilder<SqlBool>[] = []
  for (let index = 0; index < keys.length; index++) {
    const last = after(index)
    if (last === undefined) continue
    const conjuncts = [...Array.from({ length: index }, (_, before) => equal(before)), last]
    terms.push(conjuncts.length === 1 ? last : sql`(${sql.join(conjuncts, sql` and `)})`)
  }
  // Every key descending at a NULL position: nothing sorts after it (only a
  // forged position can say so, as id is never NULL), so the page is empty.
  if (terms.length === 0) return sql<SqlBool>`1 = 0`
  const condition = terms.length === 1 ? terms[0]! : sql<SqlBool>`(${sql.join(terms, sql` or `)})`
  const bound = leadingBound(first, afterNulls[0] === true, compared[0]!, plain[0]!, values[0]!)
  return bound === undefined || terms.length === 1 ? condition : sql<SqlBool>`(${bound} and ${condition})`
}

/** A bound on the first key implied by the condition, that an index on that key can seek to. */
function leadingBound(
  key: ShapedSortKey,
  isNull: boolean,
  compared: Expression<unknown>,
  plain: Expression<unknown>,
  value: unknown,
): RawBuilder<SqlBool> | undefined {
  if (key.direction === 'asc') return isNull ? undefined : sql`${compared} >= ${value}`
  if (isNull) return sql`${plain} is null`
  return key.column.nullable ? undefined : sql`${compared} <= ${value}`
}
