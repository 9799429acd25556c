/**
 * A field's `pattern` as the generated validators will run it: ajv compiles
 * JSON Schema patterns as unicode regular expressions. A broken pattern comes
 * back as the SyntaxError, for RANGE to report.
 */
export function compilePattern(pattern: string): RegExp | SyntaxError {
  try {
    return new RegExp(pattern, 'u')
  } catch (error) {
    return error instanceof SyntaxError ? error : new SyntaxError(String(error))
  }
}
