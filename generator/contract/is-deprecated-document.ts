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
