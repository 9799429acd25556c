/**
 * Exact sums and averages of decimals, in BigInt arithmetic on the digits
 * scaled to the field's `scale` (`12.50` at scale 2 is 1250n). SQLite's
 * DECIMAL_SUM_FUNCTION and DECIMAL_AVG_FUNCTION (sqlite-dialect.ts) add up
 * with it; PostgreSQL's NUMERIC does the same natively, and both answer
 * the same strings (postgres-syntax.ts rounds averages alike).
 */
export interface DecimalSum {
  readonly scale: number
  total: bigint
  count: number
}

/** The empty sum of decimals of `scale`. */
export function startDecimalSum(scale: number): DecimalSum {
  return { scale, total: 0n, count: 0 }
}

/** Adds the decimal string `text` (at most `sum.scale` fraction digits, as the column holds them). */
export function addToDecimalSum(sum: DecimalSum, text: string): DecimalSum {
  const negative = text.startsWith('-')
  const [integer = '', fraction = ''] = (negative ? text.slice(1) : text).split('.')
  const unscaled = BigInt(`${integer}${fraction.padEnd(sum.scale, '0')}`)
  sum.total += negative ? -unscaled : unscaled
  sum.count += 1
  return sum
}

/** The sum with exactly `scale` fraction digits, as NUMERIC prints it; null for no values (SQL's sum). */
export function formatDecimalSum(sum: DecimalSum): string | null {
  return sum.count === 0 ? null : formatUnscaled(sum.total, sum.scale)
}

/**
 * The average with exactly `scale` fraction digits, rounded half away from
 * zero (PostgreSQL's round() of a NUMERIC); null for no values (SQL's avg).
 */
export function formatDecimalAverage(sum: DecimalSum): string | null {
  if (sum.count === 0) return null
  const count = BigInt(sum.count)
  const magnitude = sum.total < 0n ? -sum.total : sum.total
  const rounded = (magnitude * 2n + count) / (count * 2n)
  return formatUnscaled(sum.total < 0n ? -rounded : rounded, sum.scale)
}

function formatUnscaled(value: bigint, scale: number): string {
  const digits = (value < 0n ? -value : value).toString().padStart(scale + 1, '0')
  const integer = digits.slice(0, digits.length - scale)
  const sign = value < 0n ? '-' : ''
  return scale === 0 ? `${sign}${integer}` : `${sign}${integer}.${digits.slice(digits.length - scale)}`
}
