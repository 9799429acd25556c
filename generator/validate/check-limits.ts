import { DEFAULT_LIMITS } from '../manifest/default-limits.js'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'

/**
 * LIMITS_RANGE: the default page size, and the records one include embeds per
 * relation, must be page sizes clients may ask for (the link to the rest of a
 * cut embedded array is a page of that size). Compares the effective values,
 * so `per_page_max: 10` alone (default 20) is caught too; `include_items_max`
 * only when declared, as its default follows `per_page_max`. Values that are
 * not positive integers are the schema check's to report.
 */
export function checkLimits(context: CheckContext, data: unknown): void {
  const limits = asRecord(asRecord(data)?.limits)
  if (limits === null) return
  const pageMax = limits.per_page_max ?? DEFAULT_LIMITS.per_page_max
  if (!isPositiveInteger(pageMax)) return
  checkPageDefault(context, limits.per_page_default, pageMax)
  const itemsMax = limits.include_items_max
  if (isPositiveInteger(itemsMax) && itemsMax > pageMax) {
    context.report(
      'LIMITS_RANGE',
      `include_items_max ${itemsMax} is greater than per_page_max ${pageMax}; it must be at most ${pageMax}, ` +
        'so the link to the rest of a cut embedded array is a valid page',
      context.atValue(['limits', 'include_items_max']),
    )
  }
}

function checkPageDefault(
  context: CheckContext,
  declaredDefault: unknown,
  pageMax: number,
): void {
  const pageDefault = declaredDefault ?? DEFAULT_LIMITS.per_page_default
  if (!isPositiveInteger(pageDefault) || pageDefault <= pageMax) return
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
