import { explainUnsafeIdentifier } from '../names/identifiers.js'

/**
 * The only ways a value reaches generated code. Templates are compiled with
 * HTML escaping off, so every interpolation goes through one of these, and
 * test/render/templates.test.ts rejects a bare `{{value}}`. Helpers only
 * escape: what to write is worked out before rendering, in the template's
 * view (render-project.ts), and composed in the template.
 */
export const templateHelpers = {
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
  /** Text inside a `//` or JSDoc comment: one line, no comment terminator. */
  comment: (value: unknown): string =>
    String(value)
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      .replaceAll('*/', '* /'),
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
