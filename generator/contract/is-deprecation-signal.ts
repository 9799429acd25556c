import type { ContractFinding } from './contract-finding.js'

/**
 * `response field meta`, `response 400 field meta.sunset`: the members a
 * deprecated version's bodies gain; and `meta.truncated`, which a record's
 * `meta` then holds only when an include was cut (before, `meta` was sent only then).
 */
const DEPRECATION_META = /^response (\d{3} )?field meta(\.deprecated|\.sunset|\.truncated)?$/

/**
 * Whether a finding between a deprecated version and its successor, or its
 * published contract, is only the deprecation signal itself: the older version's bodies carry
 * `meta.deprecated` and `meta.sunset` (a `meta` object where a current
 * version's item bodies have none) because it is deprecated, not because
 * its contract differs. Such findings are neither declared nor breaking.
 */
export function isDeprecationSignal(finding: ContractFinding): boolean {
  return DEPRECATION_META.test(finding.subject)
}

const OPERATION_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** Whether an OpenAPI document is a deprecated version's: it marks every operation deprecated (openapi-deprecation.ts). */
export function isDeprecatedDocument(document: unknown): boolean {
  const paths = Object.values((document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {})
  const operations = paths.flatMap((item) =>
    Object.entries(item)
      .filter(([key]) => OPERATION_KEYS.has(key))
      .map(([, operation]) => operation as { deprecated?: boolean }),
  )
  return operations.length > 0 && operations.every((operation) => operation.deprecated === true)
}
