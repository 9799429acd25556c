import { sql, type Expression } from 'kysely'
import type { FieldType } from '../../../runtime/contract/field-type.js'
import { NUMBER_RANGE, type ValueConversions } from '../convert-column-value.js'
import type { ColumnShape } from '../type-conversion.js'

const MAX_SAFE_INTEGER = sql.lit(Number.MAX_SAFE_INTEGER)
const INTEGER_TEXT = sql.lit('^-?[0-9]{1,16}$')
/** JSON's number grammar: what the API reads numbers in. */
const NUMBER_TEXT = sql.lit('^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][+-]?[0-9]+)?$')
/** An exponent of four digits or more: beyond every double, and beyond what numeric reads without failing. */
const LONG_EXPONENT = sql.lit('[eE][+-]?[0-9]*[0-9]{4}$')
/** What the API reads as a decimal (decimal-text.ts): no exponent, no `+`. */
const DECIMAL_TEXT = sql.lit('^-?[0-9]+([.][0-9]+)?$')
const DATE_TEXT = sql.lit('^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$')
const TIME_TEXT = sql.lit(
  '^.{10}[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]([.][0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$',
)

/**
 * PostgreSQL's conversions between stored values. Text is checked with
 * regular expressions (inside CASE, which runs its branch only when the check
 * holds) before a cast, which would fail the statement on `abc`.
 */
export const postgresValueConversions: ValueConversions = {
  toText: (column, value) => TO_TEXT[column.type](value),
  fromText: (column, text) => (column.type === 'decimal' ? fitDecimal(column, text) : FROM_TEXT[column.type](text)),
  integerToNumber: (value) => sql`${value}::double precision`,
  dateToDatetime: (value) => sql`${value}::timestamp at time zone 'UTC'`,
  datetimeToDate: (value) => sql`(${value} at time zone 'UTC')::date`,
}

type Conversion = (value: Expression<unknown>) => Expression<unknown>

const TO_TEXT: Readonly<Record<FieldType, Conversion>> = {
  string: (value) => value,
  integer: (value) => sql`${value}::text`,
  // As JavaScript's String(): integral values without exponent, exponents without leading zeros (1e-7, not 1e-07).
  number: (value) =>
    sql`case when ${value} = trunc(${value}) and abs(${value}) <= ${MAX_SAFE_INTEGER} then ${value}::bigint::text else regexp_replace(${value}::text, 'e([+-])0', 'e\\1') end`,
  boolean: (value) => sql`case ${value} when true then 'true' when false then 'false' end`,
  date: (value) => sql`to_char(${value}, 'YYYY-MM-DD')`,
  datetime: (value) => sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  // numeric(p, s) prints exactly s fraction digits, as the API does.
  decimal: (value) => sql`${value}::text`,
  json: (value) => sql`${value}::text`,
  array: (value) => sql`${value}::text`,
}

const FROM_TEXT: Readonly<Record<FieldType, Conversion>> = {
  string: (text) => text,
  integer: (text) =>
    sql`case when ${text} ~ ${INTEGER_TEXT} then case when abs(${text}::numeric) <= ${MAX_SAFE_INTEGER} then ${text}::bigint end end`,
  // Range-checked as numeric first: a cast of `1e400` or `1e-400` to double precision fails the statement.
  number: (text) =>
    sql`case when ${text} ~ ${NUMBER_TEXT} and ${text} !~ ${LONG_EXPONENT} then case when abs(${text}::numeric) between ${NUMBER_RANGE.smallest} and ${NUMBER_RANGE.largest} or ${text}::numeric = 0 then ${text}::double precision end end`,
  boolean: (text) => sql`case ${text} when 'true' then true when 'false' then false end`,
  date: (text) => sql`case when ${isDate(text)} then ${text}::date end`,
  datetime: (text) =>
    sql`case when ${isDate(sql`left(${text}, 10)`)} and ${text} ~ ${TIME_TEXT} then ${text}::timestamptz end`,
  decimal: () => {
    throw new Error('internal error: a decimal converts with its precision and scale (fitDecimal)')
  },
  // PostgreSQL 15 cannot test text for JSON without casting it (IS JSON is 16+): text that is no JSON
  // fails the migration (invalid input syntax for type json) rather than becoming NULL.
  json: (text) => sql`${text}::jsonb`,
  array: (text) => sql`case when jsonb_typeof(${text}::jsonb) = 'array' then ${text}::jsonb end`,
}

/**
 * The decimal text rounded to the column's scale (numeric's own rounding, half away from zero), or NULL
 * when it is no decimal (DECIMAL_TEXT: no exponent) or its integer digits do not fit once rounded, which
 * would fail the statement (numeric field overflow).
 */
function fitDecimal(column: ColumnShape, text: Expression<unknown>): Expression<unknown> {
  const scale = sql.lit(column.scale ?? 0)
  const limit = sql.lit((column.precision ?? 0) - (column.scale ?? 0))
  return sql`case when ${text} ~ ${DECIMAL_TEXT} then case when abs(round(${text}::numeric, ${scale})) < power(10::numeric, ${limit}) then round(${text}::numeric, ${scale}) end end`
}

/** Whether the text is a real `YYYY-MM-DD` date, year 0001 or later: its day at most the last of its month. */
function isDate(text: Expression<unknown>): Expression<unknown> {
  const lastDay = sql`extract(day from (left(${text}, 8) || '01')::date + interval '1 month' - interval '1 day')`
  return sql`coalesce(case when ${text} ~ ${DATE_TEXT} and ${text} >= '0001' then right(${text}, 2)::int <= ${lastDay} end, false)`
}
