import { explainUnsafeIdentifier } from '../names/identifiers.js'
import { writeTypeOfSchema } from './write-type-of-schema.js'

/**
 * The only ways a value reaches generated code. Templates are compiled with
 * HTML escaping off, so every interpolation goes through one of these, and
 * test/render/templates.test.ts rejects a bare `{{value}}`. Helpers only
 * escape: what to write is worked out before rendering, in the template's
 * view (render-project.ts), and composed in the template.
 */
export const templateHelpers = {
  /** A TypeScript type written from a JSON Schema (json and array fields): see writeTypeOfSchema. */
  tsType: (schema: unknown): string => writeTypeOfSchema(schema),
  /** A JavaScript string literal. */
  str: (value: unknown): string => JSON.stringify(String(value)),
  /** A JSON (and so JavaScript, and TypeScript literal type) literal of any plain value. */
  json: (value: unknown): string => JSON.stringify(value),
  /** An identifier, checked: anything else is a generator bug, not user input. */
  ident: (value: unknown): string => checkIdentifier(String(value)),
  /** A module specifier string literal joined from parts: `{{importPath './routes/' fileName '.js'}}`. */
  importPath: (...parts: unknown[]): string => JSON.stringify(parts.slice(0, -1).map(String).join('')),
  /** JavaScript that ajv compiled from the generator's own schemas, inserted as is. */
  compiledCode: (code: unknown): string => String(code),
  /** Text in HTML content or a quoted attribute value. */
  html: (value: unknown): string => String(value).replace(/[&<>"']/g, (character) => HTML_ENTITIES[character]!),
  /**
   * One line of Markdown text, its inline markup characters backslash-escaped
   * (CommonMark 2.4); `_` inside a word (`author_name`) marks nothing, so stays.
   */
  markdown: (value: unknown): string =>
    String(value)
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      .replace(/[\\`*[\]<>|]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\$&'),
  /** A Markdown code span, usable in a table cell (its `|` escaped, as GFM tables read it). */
  markdownCode: (value: unknown): string => {
    const text = String(value).replaceAll('|', '\\|')
    const fence = '`'.repeat(longestBacktickRun(text) + 1)
    return text.includes('`') ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`
  },
  /** A fenced Markdown code block of `language`, its fence longer than any backtick run inside. */
  markdownBlock: (value: unknown, language: unknown): string => {
    const text = String(value)
    const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1))
    return `${fence}${String(language)}\n${text}\n${fence}`
  },
  /** Text inside a `//` or JSDoc comment: one line, no comment terminator. */
  comment: (value: unknown): string =>
    String(value)
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      .replaceAll('*/', '* /'),
}

const HTML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
}

/**
 * `name`, when it can be written as an identifier in generated code. The
 * reserved words are the ones manifest validation rejects
 * (names/identifiers.ts), so hitting one here is a generator bug.
 */
export function checkIdentifier(name: string): string {
  if (explainUnsafeIdentifier(name) !== null) {
    throw new Error(`internal error: ${JSON.stringify(name)} is not a safe identifier`)
  }
  return name
}
