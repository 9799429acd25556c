import type { Diagnostic } from './diagnostic.js'

const STYLE = { bold: '\u001b[1m', red: '\u001b[31m', yellow: '\u001b[33m', reset: '\u001b[0m' } as const

/**
 * Renders diagnostics for a terminal, one block each, deduplicated and sorted
 * by file then position:
 *
 *     resources.yaml:14:5: error NAMING_PLURAL: collection "author" must be a plural noun; did you mean "authors"?
 *       author:
 *       ^^^^^^
 *
 * Line and column are 1-based (the column counts UTF-16 units, as editors do).
 * The caret line marks the span, clipped to its first line. `sources` maps each
 * diagnostic's file to its text; without it only the header line is printed.
 * ANSI color only when `options.color` (the caller decides from NO_COLOR/TTY).
 * The result ends with a newline, or is empty when there is nothing to report.
 */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  options: { color?: boolean } = {},
): string {
  const paint = (style: keyof typeof STYLE, text: string) =>
    options.color === true ? `${STYLE[style]}${text}${STYLE.reset}` : text
  const blocks: string[] = []
  for (const diagnostic of sortDiagnostics(dedupe(diagnostics))) {
    const text = sources.get(diagnostic.file)
    const severity = paint(diagnostic.severity === 'error' ? 'red' : 'yellow', diagnostic.severity)
    const tail = `${severity} ${diagnostic.code}: ${diagnostic.message}`
    if (text === undefined) {
      blocks.push(`${paint('bold', `${diagnostic.file}:`)} ${tail}\n`)
      continue
    }
    const start = Math.max(0, Math.min(diagnostic.start, text.length))
    const lineStart = start === 0 ? 0 : text.lastIndexOf('\n', start - 1) + 1
    const newline = text.indexOf('\n', start)
    const lineEnd = newline === -1 ? text.length : newline
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '')
    const lineNumber = countLines(text, lineStart)
    const column = start - lineStart + 1
    const spanEnd = Math.min(Math.max(diagnostic.end, start), lineStart + line.length)
    // Keep tabs so the carets line up under tab-indented text; count code points, not UTF-16 units.
    const indent = Array.from(line.slice(0, start - lineStart), (char) => (char === '\t' ? '\t' : ' ')).join('')
    const width = Math.max(1, Array.from(text.slice(start, spanEnd)).length)
    const carets = paint(diagnostic.severity === 'error' ? 'red' : 'yellow', '^'.repeat(width))
    blocks.push(
      `${paint('bold', `${diagnostic.file}:${lineNumber}:${column}:`)} ${tail}\n  ${line}\n  ${indent}${carets}\n`,
    )
  }
  return blocks.join('')
}

function dedupe(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>()
  return diagnostics.filter((diagnostic) => {
    const key = JSON.stringify([
      diagnostic.file,
      diagnostic.start,
      diagnostic.end,
      diagnostic.severity,
      diagnostic.code,
      diagnostic.message,
    ])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort(
    (a, b) =>
      compareText(a.file, b.file) ||
      a.start - b.start ||
      a.end - b.end ||
      compareText(a.code, b.code) ||
      compareText(a.message, b.message),
  )
}

/** Code-unit order: the same on every machine, unlike localeCompare. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function countLines(text: string, end: number): number {
  let lines = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) lines++
  return lines
}
