import { LineCounter, parseDocument, visit, type Alias, type Document, type YAMLError } from 'yaml'
import type { Diagnostic } from '../diagnostics/diagnostic.js'
import { findDuplicateKeys } from './find-duplicate-keys.js'
import { listTokens, locateYamlError, lowerFirst } from './locate-yaml-error.js'

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
  const tokens = document.errors.length + document.warnings.length > 0 ? listTokens(text) : []
  // One per line: yaml often reports one mistake several times (an over-indented line is both a
  // nested map and a multi-line key), and the first report is the one that explains it.
  const syntax = new Map<number, Diagnostic>()
  const report = (problem: YAMLError, severity: Diagnostic['severity']): void => {
    const { start, end, message } = locateYamlError(text, problem, tokens)
    const line = lineCounter.linePos(start).line
    if (!syntax.has(line))
      syntax.set(line, { code: 'YAML_SYNTAX', severity, message: `invalid YAML: ${message}`, file, start, end })
  }
  for (const error of document.errors) report(error, 'error')
  for (const warning of document.warnings) report(warning, 'warning')
  const diagnostics = [...syntax.values(), ...findDuplicateKeys(document, lineCounter, file)]
  let data: unknown
  if (document.errors.length === 0) {
    try {
      data = document.toJS({ maxAliasCount: 100 })
    } catch (error) {
      // toJS throws for an alias bomb ("excessive alias count") and for an alias without its anchor.
      const alias = findUnresolvedAlias(document)
      const reason = error instanceof Error ? lowerFirst(error.message) : String(error)
      diagnostics.push({
        code: 'YAML_SYNTAX',
        severity: 'error',
        message: alias
          ? `invalid YAML: alias "*${alias.source}" names no anchor; put "&${alias.source}" on a value above it, or correct the name`
          : `invalid YAML: ${reason}`,
        file,
        start: alias?.range?.[0] ?? 0,
        end: alias?.range?.[1] ?? 0,
      })
    }
  }
  return { file, text, document, lineCounter, data, diagnostics }
}

/** An alias with no anchor of its name before it. */
function findUnresolvedAlias(document: Document.Parsed): Alias | undefined {
  let found: Alias | undefined
  visit(document, {
    Alias(_, alias) {
      if (alias.resolve(document) !== undefined) return undefined
      found = alias
      return visit.BREAK
    },
  })
  return found
}
