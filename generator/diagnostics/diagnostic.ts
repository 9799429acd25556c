/**
 * A problem found in user input. Diagnostics are data: every stage collects
 * them instead of throwing, and the CLI renders them once, sorted by position.
 */
export interface Diagnostic {
  /** Stable rule ID, e.g. `NAMING_PLURAL`. Documented in docs/diagnostics.md. */
  readonly code: string
  readonly severity: 'error' | 'warning'
  /** Names the bad value and, where one exists, proposes the fix. */
  readonly message: string
  /** Path of the file as the user named it (relative to the working directory). */
  readonly file: string
  /** Character offsets into the file: [start, end). */
  readonly start: number
  readonly end: number
}

/**
 * A user error without a position (an unreadable manifest, a file in the way).
 * The CLI prints its message and exits 1; anything else thrown is a bug.
 */
export class UserError extends Error {
  override name = 'UserError'
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === 'error')
}
