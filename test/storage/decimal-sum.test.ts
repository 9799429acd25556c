import { describe, expect, it } from 'vitest'
import {
  addToDecimalSum,
  formatDecimalAverage,
  formatDecimalSum,
  startDecimalSum,
} from '../../runtime/storage/decimal-sum.js'

/** SQLite's exact decimal aggregates (decimal-sum.ts); test/http/cross-feature.test.ts compares both databases. */
const sumOf = (scale: number, values: readonly string[]) =>
  values.reduce((sum, value) => addToDecimalSum(sum, value), startDecimalSum(scale))

describe('decimal sums and averages', () => {
  it('adds exactly at the scale, past 2^53, and sums nothing to null', () => {
    expect(formatDecimalSum(sumOf(2, ['9007199254740993.01', '0.99', '-1']))).toBe('9007199254740993.00')
    expect(formatDecimalSum(sumOf(3, ['-0.5', '0.25']))).toBe('-0.250')
    expect(formatDecimalSum(sumOf(0, ['12', '-30']))).toBe('-18')
    expect(formatDecimalSum(startDecimalSum(2))).toBeNull()
    expect(formatDecimalAverage(startDecimalSum(2))).toBeNull()
  })

  it('rounds averages half away from zero at the scale, as PostgreSQL round(numeric) does', () => {
    expect(formatDecimalAverage(sumOf(0, ['1', '2']))).toBe('2')
    expect(formatDecimalAverage(sumOf(0, ['-1', '-2']))).toBe('-2')
    expect(formatDecimalAverage(sumOf(2, ['0.01', '0.01', '0.02']))).toBe('0.01')
    expect(formatDecimalAverage(sumOf(2, ['-0.01', '0.01', '0.01']))).toBe('0.00')
    expect(formatDecimalAverage(sumOf(2, ['-0.01', '-0.01', '0.01']))).toBe('0.00')
  })
})
