import { CST, Parser, type YAMLError } from 'yaml'
import type { SourceRange } from './source-ranges.js'

/** Where a YAML syntax error really is, and what to say about it. */
export interface YamlErrorSite extends SourceRange {
  /** Continues after "invalid YAML: ". */
  readonly message: string
}

/**
 * yaml reports some errors where it noticed them, not where the mistake is:
 * an unclosed `{` or quote at the next blank line or the end of the file, a
 * misaligned key at column 1, an over-indented line or a stray `: ` at the
 * value before it. This moves each such error to the token to fix and says
 * how to fix it; other errors keep yaml's position and message.
 *
 * @param tokens `listTokens(text)`.
 */
export function locateYamlError(text: string, error: YAMLError, tokens: readonly CST.Token[]): YamlErrorSite {
  const start = Math.min(error.pos[0], text.length)
  const end = Math.max(start, Math.min(error.pos[1], text.length))
  const reported = { start, end, message: lowerFirst(error.message) }
  switch (error.code) {
    case 'MULTIPLE_DOCS':
      return {
        ...reported,
        message:
          'a manifest is a single YAML document; remove this "---" and what follows, or merge it into the first document',
      }
    case 'TAB_AS_INDENT':
      return { ...reported, message: 'tabs are not allowed as indentation; indent with spaces' }
    case 'MISSING_CHAR':
      return /quote/.test(error.message) ? (unclosedQuote(tokens, start) ?? reported) : reported
    case 'BAD_INDENT':
      if (/end with a [}\]]/.test(error.message))
        return unclosedFlowCollection(tokens, start) ?? atLineContent(text, reported)
      if (/same column/.test(error.message)) {
        return (
          dedentedKey(text, start) ??
          atLineContent(text, {
            ...reported,
            message: `${reported.message}; align this key with the other keys of its map`,
          })
        )
      }
      return atLineContent(text, reported)
    case 'BLOCK_AS_IMPLICIT_KEY':
      if (/block sequence/.test(error.message)) {
        const message =
          'a list item ("- ") cannot stand among the keys of a map; nest it under a key that ends with ":"'
        return atLineContent(text, { ...reported, message })
      }
      return nestedMapInValue(text, tokens, start) ?? reported
    case 'MULTILINE_IMPLICIT_KEY':
      return nestedMapInValue(text, tokens, start) ?? keyWithoutColon(text, reported)
    default:
      return reported
  }
}

/** The quoted scalar that runs to the error without its closing quote: point at its opening quote. */
function unclosedQuote(tokens: readonly CST.Token[], errorAt: number): YamlErrorSite | null {
  let found: CST.FlowScalar | null = null
  for (const token of tokens) {
    if (token.type !== 'double-quoted-scalar' && token.type !== 'single-quoted-scalar') continue
    if (token.offset < errorAt && token.offset + token.source.length >= errorAt) found = token
  }
  if (!found) return null
  const quote = found.source.charAt(0)
  return {
    start: found.offset,
    end: found.offset + 1,
    message: `this ${quote} opens a quoted value that is never closed; add the closing ${quote} where the value ends`,
  }
}

/** The innermost `{` or `[` before the error that has no closing bracket. */
function unclosedFlowCollection(tokens: readonly CST.Token[], errorAt: number): YamlErrorSite | null {
  let found: CST.FlowCollection | null = null
  for (const token of tokens) {
    if (token.type !== 'flow-collection' || token.offset >= errorAt) continue
    // `[a, b }` ends a sequence with the wrong bracket: that "[" is the unclosed one.
    const closer = token.start.type === 'flow-map-start' ? 'flow-map-end' : 'flow-seq-end'
    if (!token.end.some((end) => end.type === closer)) found = token
  }
  if (!found) return null
  const open = found.start.source
  const close = open === '{' ? '}' : ']'
  return {
    start: found.start.offset,
    end: found.start.offset + 1,
    message:
      `this "${open}" is never closed; add the matching "${close}" ` +
      `(a flow ${open === '{' ? 'map' : 'sequence'} may span lines, but each line must be indented more than the key that holds it)`,
  }
}

/**
 * A block map that starts inside a value (`title: Case: more`, or a value
 * followed by an over-indented line): yaml flags the value, but the mistake is
 * the `: ` after it — on the same line a stray colon, on a later line an
 * over-indented key.
 */
function nestedMapInValue(text: string, tokens: readonly CST.Token[], errorAt: number): YamlErrorSite | null {
  for (const token of tokens) {
    if (token.type !== 'block-map' || token.offset !== errorAt) continue
    const colon = token.items[0]?.sep?.find((source) => source.type === 'map-value-ind')
    if (!colon) return null
    const valueLine = lineOf(text, errorAt)
    // A map at the start of its line is a block map of its own, not one inside a value.
    if (firstContent(text, valueLine) === errorAt) return null
    const colonLine = lineOf(text, colon.offset)
    if (valueLine.start === colonLine.start) {
      const value = text.slice(errorAt, valueLine.end).trim()
      return {
        start: colon.offset,
        end: colon.offset + 1,
        message: `": " inside a plain value starts a nested map, which is not allowed here; quote the value, e.g. ${JSON.stringify(value)}`,
      }
    }
    const keyStart = firstContent(text, colonLine)
    return {
      start: keyStart,
      end: colon.offset,
      message:
        'this line is indented more than the key above it, so YAML reads it as part of that value; ' +
        `align it with the key above (column ${keyColumn(text, tokens, errorAt)}), or nest it under a key that ends with ":"`,
    }
  }
  return null
}

/** A line of the manifest that holds more than white space or a comment. */
interface ContentLine {
  /** 1-based. */
  readonly number: number
  readonly start: number
  readonly indent: number
  readonly key: string | null
  /** The index of the nearest line above with a smaller indent, or -1. */
  readonly shallowerAbove: number
}

/**
 * One key indented less than the keys of its map around it. yaml reports the keys after it instead (a key
 * dedented to its parent's column ends the map, and its siblings below no longer align with anything), or
 * both; either way the one line to fix is the dedented key. Null when the misaligned key at `errorAt`
 * is no such case.
 */
function dedentedKey(text: string, errorAt: number): YamlErrorSite | null {
  const lines = listContentLines(text)
  const lineStart = lineOf(text, errorAt).start
  const at = binarySearch(lines, (line) => line.start >= lineStart)
  const reported = lines[at]
  if (reported === undefined || reported.start !== lineStart) return null
  // The reported key is the dedented one: the keys before and after it share a deeper column.
  const next = lines[at + 1]
  if (next !== undefined && next.indent > reported.indent) {
    const sibling = siblingAbove(lines, at, next.indent)
    if (sibling !== null) return describeDedentedKey(reported, sibling, next.indent)
  }
  // A key after the dedented one: above it, past the keys of its own column and deeper lines, a shallower key,
  // and above that one a key of the reported column again.
  const dedented = lines[reported.shallowerAbove]
  if (dedented === undefined || dedented.key === null) return null
  const sibling = siblingAbove(lines, reported.shallowerAbove, reported.indent)
  return sibling === null ? null : describeDedentedKey(dedented, sibling, reported.indent)
}

/** The nearest key above `lines[at]` at `indent`, past deeper lines (its values); null when a shallower line comes first. */
function siblingAbove(lines: readonly ContentLine[], at: number, indent: number): ContentLine | null {
  let index = at - 1
  // Past a deeper line's whole block at once: the lines between it and its shallowerAbove are deeper still.
  while (index >= 0 && lines[index]!.indent > indent) index = lines[index]!.shallowerAbove
  const line = lines[index]
  return line !== undefined && line.indent === indent && line.key !== null ? line : null
}

function describeDedentedKey(dedented: ContentLine, sibling: ContentLine, indent: number): YamlErrorSite {
  return {
    start: dedented.start + dedented.indent,
    end: dedented.start + dedented.indent + dedented.key!.length,
    message:
      `"${dedented.key}" is indented ${dedented.indent} spaces, less than the keys of its map ` +
      `("${sibling.key}" on line ${sibling.number}: ${indent}); indent it by ${indent} spaces like them`,
  }
}

/** The first index whose line satisfies `atOrAfter` (lines are in order), or `lines.length`. */
function binarySearch(lines: readonly ContentLine[], atOrAfter: (line: ContentLine) => boolean): number {
  let low = 0
  let high = lines.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (atOrAfter(lines[middle]!)) high = middle
    else low = middle + 1
  }
  return low
}

/** The last text's lines: a manifest with thousands of misaligned keys is split once, not once per error. */
let listed: { readonly text: string; readonly lines: readonly ContentLine[] } | null = null

function listContentLines(text: string): readonly ContentLine[] {
  if (listed?.text !== text) listed = { text, lines: splitContentLines(text) }
  return listed.lines
}

function splitContentLines(text: string): ContentLine[] {
  const lines: ContentLine[] = []
  let start = 0
  for (const [index, line] of text.split('\n').entries()) {
    const content = /^( *)([^\s#].*)?/.exec(line)!
    if (content[2] !== undefined) {
      const key = /^([^\s:#{[][^:#]*?):(\s|$)/.exec(content[2])
      const indent = content[1]!.length
      let shallowerAbove = lines.length - 1
      while (shallowerAbove >= 0 && lines[shallowerAbove]!.indent >= indent) {
        shallowerAbove = lines[shallowerAbove]!.shallowerAbove
      }
      lines.push({ number: index + 1, start, indent, key: key ? key[1]! : null, shallowerAbove })
    }
    start += line.length + 1
  }
  return lines
}

/** The column (1-based) of the key whose value starts at `valueAt`. */
function keyColumn(text: string, tokens: readonly CST.Token[], valueAt: number): number {
  for (const token of tokens) {
    if (token.type !== 'block-map') continue
    for (const item of token.items) {
      if (item.value?.offset !== valueAt || !item.key) continue
      return item.key.offset - lineOf(text, item.key.offset).start + 1
    }
  }
  return firstContent(text, lineOf(text, valueAt)) - lineOf(text, valueAt).start + 1
}

/** A key that runs into the next line: the line it starts on has no ": ". */
function keyWithoutColon(text: string, reported: YamlErrorSite): YamlErrorSite {
  const line = lineOf(text, reported.start)
  return {
    start: reported.start,
    end: line.end,
    message: `${reported.message}: this line has no ": " after its key, so YAML joins it with the next line; add ": " after the key`,
  }
}

/** Errors yaml puts at column 1 (a misaligned line) go to the line's first character. */
function atLineContent(text: string, reported: YamlErrorSite): YamlErrorSite {
  const line = lineOf(text, reported.start)
  const start = firstContent(text, line)
  if (start >= line.end) return reported
  const word = /^[^\s:]+/.exec(text.slice(start, line.end))
  return { ...reported, start, end: start + (word ? word[0].length : 1) }
}

function lineOf(text: string, offset: number): { start: number; end: number } {
  const start = offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1
  const newline = text.indexOf('\n', offset)
  return { start, end: newline === -1 ? text.length : newline }
}

function firstContent(text: string, line: { start: number; end: number }): number {
  const indent = /^[ \t]*/.exec(text.slice(line.start, line.end))
  return line.start + (indent ? indent[0].length : 0)
}

/** yaml's messages are sentences; ours continue after a colon. Acronyms keep their case. */
export function lowerFirst(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message.charAt(0).toLowerCase() + message.slice(1) : message
}

/** Every token of a manifest's CST, keys and values, outermost first: what locateYamlError searches. */
export function listTokens(text: string): CST.Token[] {
  const tokens: CST.Token[] = []
  for (const document of new Parser().parse(text)) {
    tokens.push(document)
    if (document.type !== 'document') continue
    CST.visit(document, (item) => {
      if (item.key) tokens.push(item.key)
      if (item.value) tokens.push(item.value)
    })
  }
  return tokens
}
