import type Pg from 'pg'
import type { CustomTypesConfig } from 'pg'
import type { ColumnTypeMapping } from '../column-type-mapping.js'

/**
 * PostgreSQL types. Values need no encoding; decoding happens while pg reads
 * rows, through `postgresTypeParsers`, so `decoders` is empty.
 */
export const postgresColumnTypes: ColumnTypeMapping = {
  sqlTypes: {
    integer: 'bigint',
    number: 'double precision',
    string: 'text',
    boolean: 'boolean',
    date: 'date',
    datetime: 'timestamptz',
    // numeric(p, s) in CREATE TABLE: sqlTypeOf.
    decimal: 'numeric',
    json: 'jsonb',
    array: 'jsonb',
  },
  // pg_type.typname of each.
  introspectedTypes: {
    integer: 'int8',
    number: 'float8',
    string: 'text',
    boolean: 'bool',
    date: 'date',
    datetime: 'timestamptz',
    decimal: 'numeric',
    json: 'jsonb',
    array: 'jsonb',
  },
  defineIdColumn: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  // pg would write a JS array as a PostgreSQL array literal, not JSON; decimals go as their text.
  encoders: { json: (value) => JSON.stringify(value), array: (value) => JSON.stringify(value) },
  decoders: {},
}

/**
 * The pool's type parsers: bigint → number, date → `YYYY-MM-DD`, timestamptz →
 * RFC 3339 UTC (`2026-11-21T10:00:00.000Z`), matching what SQLite returns.
 * numeric stays pg's text, which NUMERIC(p,s) prints with exactly s digits
 * after the point (never a JS number), and jsonb pg's JSON.parse.
 * Per pool rather than pg's global registry, so other pg users are unaffected.
 */
export function postgresTypeParsers(types: typeof Pg.types): CustomTypesConfig {
  const { INT8, DATE, TIMESTAMPTZ } = types.builtins
  const parseTimestamptz = types.getTypeParser(TIMESTAMPTZ, 'text')
  function getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (format === 'binary') return types.getTypeParser(oid, 'binary') as (value: string) => unknown
    switch (oid) {
      case INT8:
        // bigint ids and counts: JS numbers, exact up to 2^53.
        return Number
      case DATE:
        // As stored, `YYYY-MM-DD`; pg would make a local-midnight Date of it.
        return (text) => text
      case TIMESTAMPTZ:
        return timestamptzToIso((text) => parseTimestamptz(text) as Date)
      default:
        return types.getTypeParser(oid, 'text')
    }
  }
  return { getTypeParser: getTypeParser as CustomTypesConfig['getTypeParser'] }
}

/**
 * How PostgreSQL prints a timestamptz in a UTC session (TimeZone `UTC`, `Etc/UTC`…): `2026-11-21
 * 10:00:00.123456+00`, years 0001–9999.
 */
const UTC_TIMESTAMPTZ = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/

/**
 * A timestamptz's text as RFC 3339 UTC with milliseconds, as `parse` (pg's parser, through a Date) and
 * `toISOString` give it: for UTC text by slicing the string, the milliseconds truncated as the Date's are,
 * at a tenth of the cost (three per row of most tables: ~40 µs of a page of 20); any other text (another
 * session time zone, BC, infinity, years past 9999) through `parse`.
 */
export function timestamptzToIso(parse: (text: string) => Date): (text: string) => string {
  return (text) => {
    const utc = UTC_TIMESTAMPTZ.exec(text)
    if (utc === null) return parse(text).toISOString()
    return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`
  }
}
