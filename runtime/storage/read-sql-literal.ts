import type { ColumnValue } from '../contract/table-definition.js'

/** PostgreSQL's cast suffix (`::text`, `::timestamp with time zone`, `::character varying(20)`). */
const CAST = /::[a-z_ ]+(?:\(\d+(?:,\s*\d+)?\))?$/i
const NUMBER = /^[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i

/**
 * The value a DEFAULT expression holds, as introspection shows it
 * (PostgreSQL's pg_get_expr: `'draft'::text`, `'-1'::integer`, `true`;
 * SQLite's dflt_value: `'draft'`, `1`, `NULL`): a string, number, boolean or
 * null; undefined for anything but a literal (`now()`, `nextval(…)`).
 * Quoted numbers stay strings: the caller compares them as numbers.
 */
export function readSqlLiteral(expression: string): ColumnValue | undefined {
  let text = expression.trim()
  for (let previous = ''; previous !== text;) {
    previous = text
    text = text.replace(CAST, '').trim()
    if (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1).trim()
  }
  if (/^'(?:[^']|'')*'$/.test(text)) return text.slice(1, -1).replaceAll("''", "'")
  if (NUMBER.test(text)) return Number(text)
  const word = text.toLowerCase()
  if (word === 'true' || word === 'false') return word === 'true'
  return word === 'null' ? null : undefined
}
