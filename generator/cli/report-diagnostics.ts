import type { GenerateResult } from '../generate.js'
import { formatDiagnostics } from '../diagnostics/format-diagnostics.js'
import type { CliIo } from './cli-io.js'

/**
 * Prints diagnostics and a summary; returns true when there were errors.
 * `writes` says whether the command would have written output, so the summary
 * can say nothing was.
 */
export function reportDiagnostics(result: GenerateResult, manifestFile: string, io: CliIo, writes = false): boolean {
  if (result.diagnostics.length === 0) return false
  io.stderr(formatDiagnostics(result.diagnostics, result.sources, { color: io.color }))
  const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
  if (errors === 0) return false
  io.stderr(`${manifestFile}: ${errors} error${errors === 1 ? '' : 's'}${writes ? '; nothing was written' : ''}.\n`)
  return true
}
