import { DEFAULT_LIMITS } from '../../runtime/contract/api-limits.js'
import { asRecord } from '../manifest/as-record.js'
import type { ManifestPath } from '../manifest/source-ranges.js'
import type { CheckContext } from './check-context.js'
import { listResourceEntries } from './list-resource-entries.js'

/**
 * LIMITS_RANGE: the default page size, and the records one include embeds per
 * relation (`limits.include_items_max`, a has-many's `max_items`), must be
 * page sizes clients may ask for (the link to the rest of a cut embedded
 * array is a page of that size). Compares the effective values, so
 * `per_page_max: 10` alone (default 20) is caught too; the embedded caps
 * only when declared, as the default follows `per_page_max`. Values that are
 * not positive integers are the schema check's to report.
 */
export function checkLimits(context: CheckContext, data: unknown): void {
  const limits = asRecord(asRecord(data)?.limits) ?? {}
  const pageMax = limits.per_page_max ?? DEFAULT_LIMITS.per_page_max
  if (!isPositiveInteger(pageMax)) return
  checkPageDefault(context, limits.per_page_default, pageMax)
  checkItemsMax(context, limits.include_items_max, 'include_items_max', ['limits', 'include_items_max'], pageMax)
  for (const relation of listResourceEntries(data, 'relations')) {
    const label = `max_items of relation "${relation.name}"`
    checkItemsMax(context, relation.options?.max_items, label, [...relation.path, 'max_items'], pageMax)
  }
}

/** A cap on embedded records: the rest of a cut array is linked as a page of that size. */
function checkItemsMax(
  context: CheckContext,
  value: unknown,
  label: string,
  path: ManifestPath,
  pageMax: number,
): void {
  if (!isPositiveInteger(value) || value <= pageMax) return
  context.report(
    'LIMITS_RANGE',
    `${label} ${value} is greater than per_page_max ${pageMax}; it must be at most ${pageMax}, ` +
      'so the link to the rest of a cut embedded array is a valid page',
    context.atValue(path),
  )
}

function checkPageDefault(context: CheckContext, declaredDefault: unknown, pageMax: number): void {
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
