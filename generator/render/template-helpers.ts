import type { FieldModel } from '../model/api-model.js'

/**
 * The only ways a value reaches generated code. Templates are compiled with
 * HTML escaping off, so every interpolation goes through one of these, and
 * test/render/templates.test.ts rejects a bare `{{value}}`.
 */
export const templateHelpers = {
  /** A JavaScript string literal. */
  str: (value: unknown): string => JSON.stringify(String(value)),
  /** A JSON (and so JavaScript) literal of any plain value. */
  json: (value: unknown): string => JSON.stringify(value),
  /** An identifier, checked: anything else is a generator bug, not user input. */
  ident: (value: unknown): string => checkIdentifier(String(value)),
  /** A module specifier string literal joined from parts: `{{importPath './routes/' fileName '.js'}}`. */
  importPath: (...parts: unknown[]): string => JSON.stringify(parts.slice(0, -1).map(String).join('')),
  /** JavaScript that ajv compiled from the generator's own schemas, inserted as is. */
  compiledCode: (code: unknown): string => String(code),
  /** Text inside a `//` or JSDoc comment: one line, no comment terminator. */
  comment: (value: unknown): string => String(value).replace(/[\r\n\u2028\u2029]+/g, ' ').replaceAll('*/', '* /'),
  /** The TypeScript type of a field's values; `nullable` adds `| null`. */
  tsType: (field: FieldModel, nullable: unknown): string => {
    const base = field.enum ? field.enum.map((value) => JSON.stringify(value)).join(' | ') : TS_TYPES[field.type]
    return nullable === true ? `${base} | null` : base
  },
}

const TS_TYPES: Record<FieldModel['type'], string> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  date: 'string',
  datetime: 'string',
}

// Reserved in strict-mode JavaScript or TypeScript declarations; validation
// rejects such names earlier, so hitting one here is a generator bug.
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with implements interface let package private protected public static yield ' +
    'await arguments eval'
  ).split(' '),
)

export function checkIdentifier(name: string): string {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) || RESERVED.has(name)) {
    throw new Error(`internal error: ${JSON.stringify(name)} is not a safe identifier`)
  }
  return name
}
