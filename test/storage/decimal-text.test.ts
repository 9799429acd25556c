import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkDecimal,
  decodeDecimalKey,
  encodeDecimalKey,
  fitDecimal,
  formatDecimal,
} from '../../runtime/storage/decimal-text.js'

/**
 * SQLite's decimal keys (decimal-text.ts): their text order is the numbers'
 * exact order, whatever their digits, and they decode to the decimal at the
 * column's scale. Compared here with BigInt arithmetic, which is exact.
 */
const decimals = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
  )
  .map(
    ([negative, integer, fraction]) =>
      `${negative ? '-' : ''}${integer}${fraction === undefined ? '' : `.${fraction}`}`,
  )

/** The decimal as an integer count of 10^-6: generated fractions have at most 6 digits, decoded ones trailing zeros beyond. */
function micros(text: string): bigint {
  const negative = text.startsWith('-')
  const [integer = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.')
  const value = BigInt(integer) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6))
  return negative ? -value : value
}

const sign = (value: number | bigint) => (value > 0 ? 1 : value < 0 ? -1 : 0)

describe('decimal keys', () => {
  it('order as the numbers do, exactly', () => {
    fc.assert(
      fc.property(decimals, decimals, (a, b) => {
        const [keyA, keyB] = [encodeDecimalKey(a), encodeDecimalKey(b)]
        expect(sign(keyA < keyB ? -1 : keyA > keyB ? 1 : 0)).toBe(sign(micros(a) - micros(b)))
      }),
      { numRuns: 2000 },
    )
  })

  it('decode to the decimal at the scale of the column', () => {
    fc.assert(
      fc.property(decimals, fc.integer({ min: 6, max: 10 }), (text, scale) => {
        const decoded = decodeDecimalKey(encodeDecimalKey(text), scale)
        expect(micros(decoded)).toBe(micros(text))
        expect(decoded).toBe(formatDecimal(text, scale))
        expect(decoded.split('.')[1]).toHaveLength(scale)
      }),
    )
  })

  it('tell apart what JS numbers cannot', () => {
    expect(encodeDecimalKey('12345678901234567.89')).not.toBe(encodeDecimalKey('12345678901234567.9'))
    expect(encodeDecimalKey('12.5')).toBe(encodeDecimalKey('012.500'))
    expect(encodeDecimalKey('-0.00')).toBe(encodeDecimalKey('0'))
    expect(formatDecimal('-0', 2)).toBe('0.00')
  })

  it('accepts an optional minus, digits and a point with digits, and nothing else', () => {
    expect(checkDecimal('-012.50')).toBe('-12.5')
    for (const text of ['+1', '1e3', '.5', '5.', '1,5', ' 1', '', '0x10', 12.5]) {
      expect(() => checkDecimal(text), JSON.stringify(text)).toThrow()
    }
  })

  it('fits a migrated value: rounded half away from zero, null when its integer digits overflow', () => {
    expect(fitDecimal('12.345', 10, 2)).toBe('12.35')
    expect(fitDecimal('-12.345', 10, 2)).toBe('-12.35')
    expect(fitDecimal('99.995', 4, 2)).toBeNull()
    expect(fitDecimal('99.994', 4, 2)).toBe('99.99')
    expect(fitDecimal('abc', 4, 2)).toBeNull()
    expect(fitDecimal('9007199254740993', 18, 0)).toBe('9007199254740993')
  })
})
