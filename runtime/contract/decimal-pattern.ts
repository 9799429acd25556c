/**
 * What a decimal(precision, scale) value may look like, as a JSON Schema
 * pattern: an optional `-`, at most `precision - scale` digits before the
 * point (leading zeros aside) and at most `scale` after it, so the value fits
 * NUMERIC(precision, scale) without rounding (`12.5` and `12.50` both fit
 * scale 2). No `+`, no exponent, no bare `.5`.
 */
export function decimalPattern({ precision, scale }: { precision: number; scale: number }): string {
  const integer = precision === scale ? '0+' : `0*\\d{1,${precision - scale}}`
  return `^-?${integer}${scale === 0 ? '' : `(\\.\\d{1,${scale}})?`}$`
}

/**
 * The integer and fraction digits a decimalPattern allows, read back from
 * the pattern (a published document holds only it); null for any other pattern.
 */
export function readDecimalDigits(pattern: string): { integerDigits: number; scale: number } | null {
  const match = /^\^-\?(?:0\+|0\*\\d\{1,(\d+)\})(?:\(\\\.\\d\{1,(\d+)\}\)\?)?\$$/.exec(pattern)
  if (match === null) return null
  return { integerDigits: Number(match[1] ?? 0), scale: Number(match[2] ?? 0) }
}
