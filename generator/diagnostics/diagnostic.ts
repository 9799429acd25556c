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

/** Thrown only for user errors that stop a stage (not for bugs). */
export class DiagnosticsError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(`${diagnostics.length} problem(s) found`)
    this.name = 'DiagnosticsError'
  }
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === 'error')
}
