import { isMap, isScalar, LineCounter, parseDocument, visit, type Document, type YAMLError } from 'yaml'
import type { Diagnostic } from '../diagnostics/diagnostic.js'

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
    uniqueKeys: true,
    // `<<: *anchor` merges, so shared field options can be written once.
    merge: true,
    // Keeps errors and warnings in the document without yaml printing them ('silent' would drop some errors).
    logLevel: 'error',
  })
  const loaded = { file, text, document, lineCounter }
  const diagnostics = [
    ...document.errors.map((error) => toDiagnostic(loaded, error, 'error')),
    ...document.warnings.map((warning) => toDiagnostic(loaded, warning, 'warning')),
  ]
  let data: unknown
  if (document.errors.every((error) => error.code === 'DUPLICATE_KEY')) {
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

function toDiagnostic(
  loaded: Pick<LoadedManifest, 'file' | 'text' | 'document' | 'lineCounter'>,
  error: YAMLError,
  severity: Diagnostic['severity'],
): Diagnostic {
  const { file, text } = loaded
  const start = Math.min(error.pos[0], text.length)
  const end = Math.max(start, Math.min(error.pos[1], text.length))
  if (error.code === 'DUPLICATE_KEY') {
    // Only a key that is not a plain scalar (a flow collection) has no better description.
    const duplicate = describeDuplicateKey(loaded, start, severity)
    const message = 'duplicate key: a key may appear only once in a map'
    return duplicate ?? { code: 'YAML_DUPLICATE_KEY', severity, message, file, start, end }
  }
  const message =
    error.code === 'MULTIPLE_DOCS'
      ? 'a manifest is a single YAML document; remove this "---" and what follows, or merge it into the first document'
      : lowerFirst(error.message)
  return { code: 'YAML_SYNTAX', severity, message: `invalid YAML: ${message}`, file, start, end }
}

/** yaml marks only the first character of a duplicate key; find the whole key and where it first appeared. */
function describeDuplicateKey(
  loaded: Pick<LoadedManifest, 'file' | 'document' | 'lineCounter'>,
  offset: number,
  severity: Diagnostic['severity'],
): Diagnostic | null {
  let found: Diagnostic | null = null
  visit(loaded.document, {
    Pair(_, pair, path) {
      const key = pair.key
      if (!isScalar(key) || key.range?.[0] !== offset) return undefined
      const map = path[path.length - 1]
      const name = String(key.value)
      const first = isMap(map)
        ? map.items.find((item) => isScalar(item.key) && String(item.key.value) === name)
        : undefined
      const firstOffset = isScalar(first?.key) ? first.key.range?.[0] : undefined
      const firstLine =
        firstOffset === undefined ? '' : ` (first at line ${loaded.lineCounter.linePos(firstOffset).line})`
      found = {
        code: 'YAML_DUPLICATE_KEY',
        severity,
        message: `duplicate key ${JSON.stringify(name)}${firstLine}: a key may appear only once in a map, otherwise the last one silently wins; remove or rename one`,
        file: loaded.file,
        start: offset,
        end: key.range[1],
      }
      return visit.BREAK
    },
  })
  return found
}

/** yaml's messages are sentences; ours continue after a colon. Acronyms keep their case. */
function lowerFirst(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message.charAt(0).toLowerCase() + message.slice(1) : message
}
