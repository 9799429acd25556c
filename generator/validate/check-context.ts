import type { Diagnostic } from '../diagnostics/diagnostic.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import { findKeyRange, findValueRange, type ManifestPath, type SourceRange } from '../manifest/source-ranges.js'
import type { RuleId } from './rules.js'

/** What every check gets: a way to find source positions and to record problems. */
export interface CheckContext {
  /** Range of the key token naming `path`'s last segment: where naming rules point. */
  atKey(path: ManifestPath): SourceRange
  /** Range of the value at `path`: where bad values point. */
  atValue(path: ManifestPath): SourceRange
  report(code: RuleId, message: string, range: SourceRange): void
}

/** A context over one loaded manifest; its diagnostics fill up as checks report. */
export function createCheckContext(loaded: LoadedManifest): { context: CheckContext; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = []
  const context: CheckContext = {
    atKey: (path) => findKeyRange(loaded.document, path),
    atValue: (path) => findValueRange(loaded.document, path),
    report: (code, message, range) => {
      diagnostics.push({ code, severity: 'error', message, file: loaded.file, start: range.start, end: range.end })
    },
  }
  return { context, diagnostics }
}
