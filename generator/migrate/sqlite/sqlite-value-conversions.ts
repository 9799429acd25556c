import { sql, type Expression } from 'kysely'
import type { FieldType } from '../../../runtime/contract/field-type.js'
import { NUMBER_RANGE, type ValueConversions } from '../convert-column-value.js'
import { DECIMAL_KEY_FUNCTION, DECIMAL_TEXT_FUNCTION } from '../../../runtime/storage/sqlite/sqlite-syntax.js'

const MAX_SAFE_INTEGER = sql.lit(Number.MAX_SAFE_INTEGER)
const DATE_SHAPE = sql.lit('[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
const DATETIME_SHAPE = sql.lit('[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9][Tt ][0-9][0-9]:[0-9][0-9]:[0-9][0-9]*')

/**
 * SQLite's conversions between stored values: integers, reals, booleans as
 * 0/1, dates and datetimes as their text. Text is checked with GLOB and
 * json_valid (JSON's number grammar, what the API reads numbers in) before
 * CAST, which would read `abc` as 0.
 */
export const sqliteValueConversions: ValueConversions = {
  toText: (column, value) =>
    column.type === 'decimal'
      ? sql`${sql.raw(DECIMAL_TEXT_FUNCTION)}(${value}, ${sql.lit(column.scale ?? 0)})`
      : TO_TEXT[column.type](value),
  fromText: (column, text) =>
    column.type === 'decimal'
      ? sql`${sql.raw(DECIMAL_KEY_FUNCTION)}(${text}, ${sql.lit(column.precision ?? 0)}, ${sql.lit(column.scale ?? 0)})`
      : FROM_TEXT[column.type](text),
  integerToNumber: (value) => sql`cast(${value} as real)`,
  dateToDatetime: (value) => sql`${value} || 'T00:00:00.000Z'`,
  datetimeToDate: (value) => sql`substr(${value}, 1, 10)`,
}

type Conversion = (value: Expression<unknown>) => Expression<unknown>

const JSON_WHITE_SPACE = sql`' ' || char(9) || char(10) || char(13)`
const LONG_EXPONENT = sql.lit('*[eE]*[0-9][0-9][0-9][0-9]')

/**
 * The real, or NULL when it does not keep the text's value (NUMBER_RANGE): SQLite reads `1e400` as Infinity and
 * `1e-400` as 0, so a zero whose text has a digit other than 0 before its exponent underflowed.
 */
function finiteNumber(real: Expression<unknown>, text: Expression<unknown>): Expression<unknown> {
  const mantissa = sql`substr(${text}, 1, instr(replace(${text}, 'E', 'e') || 'e', 'e') - 1)`
  return sql`case when abs(${real}) between ${NUMBER_RANGE.smallest} and ${NUMBER_RANGE.largest} or (${real} = 0 and not ${mantissa} glob '*[1-9]*') then ${real} end`
}

const TO_TEXT: Readonly<Record<FieldType, Conversion>> = {
  string: (value) => value,
  integer: (value) => sql`cast(${value} as text)`,
  // As JavaScript's String(): integral values without `.0`, exponents without leading zeros (1e-7, not 1.0e-07).
  number: (value) =>
    sql`case when ${value} = cast(${value} as integer) and abs(${value}) <= ${MAX_SAFE_INTEGER} then cast(cast(${value} as integer) as text) else replace(replace(replace(cast(${value} as text), '.0e', 'e'), 'e-0', 'e-'), 'e+0', 'e+') end`,
  boolean: (value) => sql`case ${value} when 1 then 'true' when 0 then 'false' end`,
  date: (value) => value,
  datetime: (value) => value,
  decimal: () => {
    throw new Error(`internal error: a decimal's text comes from ${DECIMAL_TEXT_FUNCTION}, with its scale`)
  },
  json: (value) => value,
  array: (value) => value,
}

const FROM_TEXT: Readonly<Record<FieldType, Conversion>> = {
  string: (text) => text,
  integer: (text) =>
    sql`case when (${text} glob '[0-9]*' or ${text} glob '-[0-9]*') and substr(${text}, 2) not glob '*[^0-9]*' and length(${text}) <= 17 and abs(cast(${text} as integer)) <= ${MAX_SAFE_INTEGER} then cast(${text} as integer) end`,
  // json_type() fails on malformed JSON, so it runs only once json_valid() said yes (which allows white space
  // around the number: the trim refuses it, as PostgreSQL's grammar does).
  number: (text) =>
    sql`case when json_valid(${text}) and trim(${text}, ${JSON_WHITE_SPACE}) = ${text} then case when json_type(${text}) in ('integer', 'real') and not ${text} glob ${LONG_EXPONENT} then ${finiteNumber(sql`cast(${text} as real)`, text)} end end`,
  boolean: (text) => sql`case ${text} when 'true' then 1 when 'false' then 0 end`,
  // date() rolls impossible days over (2026-02-30 → 2026-03-02), so a real date is one it returns unchanged.
  date: (text) =>
    sql`case when ${text} glob ${DATE_SHAPE} and date(${text}) = ${text} and ${text} >= '0001' then ${text} end`,
  // strftime() reads the offset (Z, ±hh:mm) and gives UTC in the runtime's stored form.
  datetime: (text) =>
    sql`case when ${text} glob ${DATETIME_SHAPE} and (${text} glob '*[Zz]' or ${text} glob '*[+-][0-9][0-9]:[0-9][0-9]') and date(substr(${text}, 1, 10)) = substr(${text}, 1, 10) then strftime('%Y-%m-%dT%H:%M:%fZ', ${text}) end`,
  decimal: () => {
    throw new Error(`internal error: a decimal's key comes from ${DECIMAL_KEY_FUNCTION}, with its precision and scale`)
  },
  // Stored minified, as the API writes it.
  json: (text) => sql`case when json_valid(${text}) then json(${text}) end`,
  array: (text) => sql`case when json_valid(${text}) and json_type(${text}) = 'array' then json(${text}) end`,
}
