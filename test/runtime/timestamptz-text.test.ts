import fc from 'fast-check'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { timestamptzToIso } from '../../runtime/storage/postgres/postgres-column-types.js'

/**
 * PostgreSQL timestamptz text → RFC 3339 UTC (postgres-column-types.ts): the string-slicing path for a UTC
 * session's text gives exactly what pg's own parser and `toISOString` give, for any instant from year 1 to
 * 9999 and any fraction PostgreSQL prints (none, or 1–6 digits); other text goes through pg's parser.
 */
const parse = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date
const toIso = timestamptzToIso(parse)
const viaDate = (text: string) => parse(text).toISOString()

const pad = (value: number, width: number) => String(value).padStart(width, '0')
const utcTexts = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
  })
  .map(
    ({ year, month, day, hour, minute, second, fraction }) =>
      `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)} ${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}` +
      `${fraction === undefined ? '' : `.${fraction}`}+00`,
  )

describe('timestamptz text as RFC 3339 UTC', () => {
  it("a UTC session's text: the same string as pg's parser and toISOString, for 5,000 instants", () => {
    fc.assert(
      fc.property(utcTexts, (text) => {
        expect(toIso(text)).toBe(viaDate(text))
      }),
      { numRuns: 5_000 },
    )
  })

  it('truncates a fraction to milliseconds, as the Date does', () => {
    expect(toIso('2026-11-21 10:00:00.123999+00')).toBe('2026-11-21T10:00:00.123Z')
    expect(toIso('2026-11-21 10:00:00.5+00')).toBe('2026-11-21T10:00:00.500Z')
    expect(toIso('2026-11-21 10:00:00+00')).toBe('2026-11-21T10:00:00.000Z')
    expect(toIso('0050-01-01 00:00:00+00')).toBe('0050-01-01T00:00:00.000Z')
  })

  it("another session time zone's text goes through pg's parser", () => {
    expect(toIso('2026-11-21 11:30:00.25+01:30')).toBe('2026-11-21T10:00:00.250Z')
    expect(toIso('2026-11-21 05:00:00-05')).toBe('2026-11-21T10:00:00.000Z')
    expect(toIso('0044-03-15 12:00:00+00 BC')).toBe(viaDate('0044-03-15 12:00:00+00 BC'))
  })
})
