import { describe, expect, it } from 'vitest'
import { normalizeDatetime } from '../../runtime/storage/normalize-datetime.js'

/** What normalizeDatetime must always agree with: parse, then format as UTC. */
function slowNormalize(value: string): string {
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw new TypeError('invalid')
  return new Date(time).toISOString()
}

describe('normalizeDatetime', () => {
  it('converts offsets and missing milliseconds to the UTC toISOString form', () => {
    expect(normalizeDatetime('2026-01-01T10:00:00+02:00')).toBe('2026-01-01T08:00:00.000Z')
    expect(normalizeDatetime('2026-01-01T10:00:00Z')).toBe('2026-01-01T10:00:00.000Z')
    expect(normalizeDatetime('2026-01-01T10:00:00.5z')).toBe('2026-01-01T10:00:00.500Z')
  })

  it('returns canonical values unchanged, and out-of-range canonical-looking ones as Date.parse reads them', () => {
    for (const value of [
      '2024-02-29T23:59:59.999Z',
      '2000-02-29T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '2026-02-30T00:00:00.000Z',
      '2023-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-00-10T00:00:00.000Z',
    ]) {
      let expected: string | Error
      try {
        expected = slowNormalize(value)
      } catch (error) {
        expected = error as Error
      }
      if (expected instanceof Error) expect(() => normalizeDatetime(value), value).toThrow(TypeError)
      else expect(normalizeDatetime(value), value).toBe(expected)
    }
  })

  it('agrees with parsing and formatting on random canonical-shaped strings', () => {
    let state = 42
    const next = (modulo: number) => {
      state = (state * 1103515245 + 12345) % 2147483648
      return Math.floor(state / 256) % modulo
    }
    const pad = (value: number, length: number) => String(value).padStart(length, '0')
    for (let index = 0; index < 20_000; index++) {
      const value =
        `${pad(next(10000), 4)}-${pad(next(14), 2)}-${pad(next(33), 2)}T` +
        `${pad(next(26), 2)}:${pad(next(61), 2)}:${pad(next(61), 2)}.${pad(next(1000), 3)}Z`
      let expected: string
      try {
        expected = slowNormalize(value)
      } catch {
        expect(() => normalizeDatetime(value), value).toThrow(TypeError)
        continue
      }
      expect(normalizeDatetime(value), value).toBe(expected)
    }
  })

  it('rejects what is not a datetime', () => {
    for (const value of ['', 'yesterday', 'x026-01-01T00:00:00.000Z', 12, null]) {
      expect(() => normalizeDatetime(value)).toThrow(/expected an RFC 3339 datetime/)
    }
  })
})
