import { fullFormats } from 'ajv-formats/dist/formats.js'
import { describe, expect, it } from 'vitest'
import {
  checkDate,
  DATE_REASON,
  DATETIME_REASONS,
  normalizeDatetime,
} from '../../runtime/storage/normalize-datetime.js'
import { RejectedValue } from '../../runtime/storage/rejected-value.js'

/** What the HTTP layer validates datetimes with before they reach the storage. */
const ajvDateTime = fullFormats['date-time'] as { validate: (value: string) => boolean }

/** The reason normalizeDatetime refuses `value` with, or its result. */
function outcome(value: unknown): string {
  try {
    return normalizeDatetime(value)
  } catch (error) {
    expect(error, JSON.stringify(value)).toBeInstanceOf(RejectedValue)
    expect(error).toBeInstanceOf(TypeError)
    return `rejected: ${(error as RejectedValue).reason}`
  }
}

const rejected = (reason: string) => `rejected: ${reason}`

function random(seed: number) {
  let state = seed
  return (modulo: number) => {
    state = (state * 1103515245 + 12345) % 2147483648
    return Math.floor(state / 256) % modulo
  }
}

const pad = (value: number, length: number) => String(value).padStart(length, '0')

describe('normalizeDatetime', () => {
  it('converts offsets and missing milliseconds to the UTC toISOString form', () => {
    expect(normalizeDatetime('2026-01-01T10:00:00+02:00')).toBe('2026-01-01T08:00:00.000Z')
    expect(normalizeDatetime('2026-01-01T10:00:00Z')).toBe('2026-01-01T10:00:00.000Z')
    expect(normalizeDatetime('2026-01-01T10:00:00.5z')).toBe('2026-01-01T10:00:00.500Z')
  })

  it('reads every form ajv accepts: separators, short offsets, long fractions (truncated)', () => {
    for (const [value, expected] of [
      ['2026-01-01t10:00:00z', '2026-01-01T10:00:00.000Z'],
      ['2026-01-01 10:00:00Z', '2026-01-01T10:00:00.000Z'],
      ['2026-01-01T10:00:00+05', '2026-01-01T05:00:00.000Z'],
      ['2026-01-01T10:00:00+0530', '2026-01-01T04:30:00.000Z'],
      ['2026-01-01T10:00:00-00:00', '2026-01-01T10:00:00.000Z'],
      ['2026-01-01T10:00:00.123456789Z', '2026-01-01T10:00:00.123Z'],
      ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000Z'],
      ['0050-03-01T00:00:00Z', '0050-03-01T00:00:00.000Z'],
    ]) {
      expect(ajvDateTime.validate(value!), value).toBe(true)
      expect(normalizeDatetime(value), value).toBe(expected)
    }
  })

  it('refuses leap seconds, although ajv accepts them', () => {
    for (const value of ['2016-12-31T23:59:60Z', '2016-12-31T18:59:60-05:00', '2016-12-31T23:59:60.5+00:00']) {
      expect(ajvDateTime.validate(value), value).toBe(true)
      expect(outcome(value), value).toBe(rejected(DATETIME_REASONS.leapSecond))
    }
  })

  it('refuses instants outside 0001–9999 once converted to UTC', () => {
    expect(ajvDateTime.validate('9999-12-31T23:59:59-23:59')).toBe(true)
    for (const value of [
      '9999-12-31T23:59:59-23:59',
      '9999-12-31T23:59:59.999-00:01',
      '0001-01-01T00:59:59+01:00',
      '0000-06-01T00:00:00Z',
      '0000-01-01T00:00:00.000Z',
      '+010000-01-01T23:58:59.000Z',
      '-000001-01-01T00:00:00.000Z',
      '+275761-01-01T00:00:00.000Z',
    ]) {
      expect(outcome(value), value).toBe(rejected(DATETIME_REASONS.range))
    }
    expect(normalizeDatetime('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z')
    expect(normalizeDatetime('0001-01-01T01:00:00+01:00')).toBe('0001-01-01T00:00:00.000Z')
    expect(normalizeDatetime('9999-12-31T23:59:59.9999Z')).toBe('9999-12-31T23:59:59.999Z')
    expect(normalizeDatetime('9999-12-31T22:59:59.999-01:00')).toBe('9999-12-31T23:59:59.999Z')
  })

  it('returns canonical values unchanged and refuses impossible ones instead of rolling them over', () => {
    for (const value of [
      '2024-02-29T23:59:59.999Z',
      '2000-02-29T00:00:00.000Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      expect(normalizeDatetime(value), value).toBe(value)
    }
    for (const value of [
      '2026-02-30T00:00:00.000Z',
      '2023-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-00-10T00:00:00.000Z',
      '2026-01-01T10:61:00.000Z',
    ]) {
      expect(outcome(value), value).toBe(rejected(DATETIME_REASONS.format))
    }
  })

  it('agrees with a round trip through Date on random canonical-shaped strings', () => {
    const next = random(42)
    for (let index = 0; index < 20_000; index++) {
      const value =
        `${pad(next(10000), 4)}-${pad(next(14), 2)}-${pad(next(33), 2)}T` +
        `${pad(next(26), 2)}:${pad(next(61), 2)}:${pad(next(61), 2)}.${pad(next(1000), 3)}Z`
      const date = new Date(value)
      const valid = !Number.isNaN(date.getTime()) && date.toISOString() === value && !value.startsWith('0000')
      if (valid) expect(normalizeDatetime(value), value).toBe(value)
      else expect(() => normalizeDatetime(value), value).toThrow(RejectedValue)
    }
  })

  it('agrees with Date.parse on random valid datetimes with offsets, and refuses only what is out of range', () => {
    const next = random(7)
    for (let index = 0; index < 20_000; index++) {
      const year = next(10000)
      const month = 1 + next(12)
      const day = 1 + next(28)
      const sign = next(2) === 0 ? '+' : '-'
      const fraction = next(3) === 0 ? '' : `.${pad(next(1000), 3)}`
      const value =
        `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(next(24), 2)}:${pad(next(60), 2)}:${pad(next(60), 2)}` +
        `${fraction}${sign}${pad(next(24), 2)}:${pad(next(60), 2)}`
      expect(ajvDateTime.validate(value), value).toBe(true)
      const time = Date.parse(value)
      const inRange = time >= Date.parse('0001-01-01T00:00:00Z') && time <= Date.parse('9999-12-31T23:59:59.999Z')
      expect(outcome(value), value).toBe(inRange ? new Date(time).toISOString() : rejected(DATETIME_REASONS.range))
    }
  })

  it('refuses what is not an RFC 3339 datetime with an offset, whatever Date.parse makes of it', () => {
    for (const value of [
      '',
      'yesterday',
      'Jan 1 2026',
      '2026-01-01',
      '2026-01-01T10:00:00',
      '2026-01-01T10:00Z',
      '2026-01-01T10:00:00+24:00',
      '2026-01-01T10:00:00+05:60',
      '2026-01-01T10:00:00.Z',
      'x026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z\u0000',
      12,
      null,
      true,
    ]) {
      expect(outcome(value), JSON.stringify(value)).toBe(rejected(DATETIME_REASONS.format))
    }
  })
})

describe('checkDate', () => {
  it('accepts real dates in the years 0001–9999 and refuses everything else', () => {
    for (const value of ['2024-02-29', '0001-01-01', '9999-12-31', '2026-04-30']) expect(checkDate(value)).toBe(value)
    for (const value of [
      '0000-01-01',
      '2023-02-29',
      '2026-13-01',
      '2026-04-31',
      '2026-1-01',
      '2026-01-01T00:00:00Z',
      20260101,
    ]) {
      expect(() => checkDate(value), String(value)).toThrow(new RejectedValue(DATE_REASON))
    }
  })
})
