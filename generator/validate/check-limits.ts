import { DEFAULT_LIMITS } from '../manifest/default-limits.js'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'

/**
 * LIMITS_RANGE: the default page size must be a size clients may ask for.
 * Compares the effective values, so `per_page_max: 10` alone (default 20) is
 * caught too. Values that are not positive integers are the schema check's to report.
 */
export function checkLimits(context: CheckContext, data: unknown): void {
  const limits = asRecord(asRecord(data)?.limits)
  if (limits === null) return
  const declaredDefault = limits.per_page_default
  const declaredMax = limits.per_page_max
  const pageDefault = declaredDefault ?? DEFAULT_LIMITS.per_page_default
  const pageMax = declaredMax ?? DEFAULT_LIMITS.per_page_max
  if (!isPositiveInteger(pageDefault) || !isPositiveInteger(pageMax) || pageDefault <= pageMax) return
  if (declaredDefault === undefined) {
    context.report(
      'LIMITS_RANGE',
      `per_page_max ${pageMax} is less than the default per_page_default ${pageDefault}; also set per_page_default to at most ${pageMax}`,
      context.atValue(['limits', 'per_page_max']),
    )
    return
  }
  context.report(
    'LIMITS_RANGE',
    `per_page_default ${pageDefault} is greater than per_page_max ${pageMax}; it must be at most ${pageMax}`,
    context.atValue(['limits', 'per_page_default']),
  )
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1
}
