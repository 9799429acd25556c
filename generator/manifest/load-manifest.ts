import { LineCounter, parseDocument, type Document, type YAMLError } from 'yaml'
import type { Diagnostic } from '../diagnostics/diagnostic.js'
import { findDuplicateKeys } from './find-duplicate-keys.js'

/** A manifest file parsed as YAML, with everything later stages need to point at its source. */
export interface LoadedManifest {
  /** Path as the user gave it, e.g. `resources.yaml`. */
  readonly file: string
  readonly text: string
  /** Parsed with source tokens and ranges kept: diagnostics point at its nodes. */
  readonly document: Document.Parsed
  readonly lineCounter: LineCounter
  /** `document.toJS()`; undefined when syntax errors make the document untrustworthy. */
  readonly data: unknown
  /** YAML_SYNTAX errors (and yaml's warnings) and YAML_DUPLICATE_KEY errors, with positions. */
  readonly diagnostics: Diagnostic[]
}

/**
 * Parses manifest text. Never throws for bad input: syntax errors and
 * duplicate keys come back as diagnostics. Duplicate keys alone still yield
 * data (the last value wins), so later stages can report everything else too.
 */
export function loadManifest(file: string, text: string): LoadedManifest {
  const lineCounter = new LineCounter()
  const document = parseDocument(text, {
    lineCounter,
    keepSourceTokens: true,
    prettyErrors: false,
    // yaml's own check is quadratic in the keys of a map; findDuplicateKeys is linear.
    uniqueKeys: false,
    // `<<: *anchor` merges, so shared field options can be written once.
    merge: true,
    // Keeps errors and warnings in the document without yaml printing them ('silent' would drop some errors).
    logLevel: 'error',
  })
  const diagnostics = [
    ...document.errors.map((error) => toDiagnostic(file, text, error, 'error')),
    ...document.warnings.map((warning) => toDiagnostic(file, text, warning, 'warning')),
    ...findDuplicateKeys(document, lineCounter, file),
  ]
  let data: unknown
  if (document.errors.length === 0) {
    try {
      data = document.toJS({ maxAliasCount: 100 })
    } catch (error) {
      // toJS refuses alias bombs ("excessive alias count") by throwing.
      const reason = error instanceof Error ? error.message : String(error)
      diagnostics.push({
        code: 'YAML_SYNTAX',
        severity: 'error',
        message: `invalid YAML: ${lowerFirst(reason)}`,
        file,
        start: 0,
        end: 0,
      })
    }
  }
  return { file, text, document, lineCounter, data, diagnostics }
}

function toDiagnostic(file: string, text: string, error: YAMLError, severity: Diagnostic['severity']): Diagnostic {
  const start = Math.min(error.pos[0], text.length)
  const end = Math.max(start, Math.min(error.pos[1], text.length))
  const message =
    error.code === 'MULTIPLE_DOCS'
      ? 'a manifest is a single YAML document; remove this "---" and what follows, or merge it into the first document'
      : lowerFirst(error.message)
  return { code: 'YAML_SYNTAX', severity, message: `invalid YAML: ${message}`, file, start, end }
}

/** yaml's messages are sentences; ours continue after a colon. Acronyms keep their case. */
function lowerFirst(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message.charAt(0).toLowerCase() + message.slice(1) : message
}
