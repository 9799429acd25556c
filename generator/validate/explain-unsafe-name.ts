/** Properties every JavaScript object has; a name equal to one corrupts maps keyed by name. */
const OBJECT_INTERNALS: readonly string[] = ['__proto__', 'constructor', 'prototype']

/**
 * Words that cannot be identifiers in the strict-mode ES modules the generator
 * writes (plus literals and restricted bindings).
 */
const RESERVED_WORDS: ReadonlySet<string> = new Set(
  [
    'await break case catch class const continue debugger default delete do else enum export extends false',
    'finally for function if implements import in instanceof interface let new null package private protected',
    'public return static super switch this throw true try typeof var void while with yield arguments eval undefined',
  ]
    .join(' ')
    .split(' '),
)

/**
 * What a name is used as: resource names and singulars become paths, files and
 * identifiers; field names become properties, columns and identifiers.
 */
export type NameKind = 'resource' | 'field' | 'singular'

/**
 * Why `name` could escape a URL path, a file name or a generated identifier,
 * and what to do instead, as a clause (`contains "/", which ...; use ...`), or
 * null when it is safe. Case and separator style are not judged here: the
 * naming rules do that.
 */
export function explainUnsafeName(name: string, kind: NameKind): string | null {
  const shape = SHAPES[kind]
  if (name === '') return `is empty; ${shape}`
  const slash = /[/\\]/.exec(name)?.[0]
  if (slash !== undefined)
    return `contains "${slash}", which would escape the URL path and the generated file names; ${shape}`
  if (name.includes('..')) return `contains "..", which would walk out of the generated directories; ${shape}`
  const bad = /[^A-Za-z0-9_\- ]/u.exec(name)?.[0]
  if (bad !== undefined)
    return `contains ${JSON.stringify(bad)}, which is not allowed in paths, file names and identifiers; ${shape}`
  if (/^[0-9]/.test(name)) return `starts with a digit, which cannot start a TypeScript identifier; ${shape}`
  if (OBJECT_INTERNALS.includes(name.toLowerCase())) {
    return 'is a built-in property of every JavaScript object and would corrupt lookups by name; choose another name'
  }
  if (kind === 'field' && RESERVED_WORDS.has(name)) {
    return 'is a JavaScript reserved word and would break generated code; choose another name'
  }
  return null
}

const SHAPES: Readonly<Record<NameKind, string>> = {
  resource: 'use lowercase words separated by hyphens, starting with a letter',
  singular: 'use lowercase words separated by hyphens, starting with a letter',
  field: 'use lower_snake_case, starting with a letter',
}
