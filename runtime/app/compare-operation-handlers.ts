/** One way an app module's `operations` disagrees with the manifest's declared operations. */
export type OperationMismatch =
  /** The manifest declares the operation; the module exports no handler for it. */
  | { readonly kind: 'handler-missing'; readonly key: string }
  /** The module exports a handler no operation of the manifest declares. */
  | { readonly kind: 'handler-undeclared'; readonly key: string }

/**
 * Compares the app module's `operations` (its default export's; anything
 * that is not a function counts as missing) with the declared handler keys
 * (`orders.cancellations.create`). `restmint check` reports the result at the
 * declarations, and the server refuses to start on any.
 */
export function compareOperationHandlers(operations: unknown, declared: readonly string[]): OperationMismatch[] {
  const exported = typeof operations === 'object' && operations !== null ? (operations as Record<string, unknown>) : {}
  const missing = declared
    .filter((key) => !Object.hasOwn(exported, key) || typeof exported[key] !== 'function')
    .map((key) => ({ kind: 'handler-missing' as const, key }))
  const undeclared = Object.keys(exported)
    .filter((key) => !declared.includes(key))
    .map((key) => ({ kind: 'handler-undeclared' as const, key }))
  return [...missing, ...undeclared]
}

/** One mismatch as a sentence, with its fix. */
export function describeOperationMismatch(mismatch: OperationMismatch): string {
  const [resource, operation] = mismatch.key.split('.')
  if (mismatch.kind === 'handler-missing') {
    return (
      `operation "${operation}" of resource "${resource}" has no handler: ` +
      `export operations['${mismatch.key}'] from the app module, or remove the operation from the manifest`
    )
  }
  return (
    `the app module exports operations['${mismatch.key}'], which the manifest does not declare ` +
    `(keys are <resource>.<operation>.<method name>: list for GET, create for POST, replace for PUT, update for PATCH, delete for DELETE); ` +
    `declare it under resources.${resource ?? '<resource>'}.operations${operation ? `.${operation}` : ''}, or remove the handler`
  )
}
