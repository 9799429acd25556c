/**
 * The one list of words that cannot name a binding in the strict-mode ES
 * modules (and TypeScript declarations) the generator writes: reserved words,
 * strict-mode reserved words, literals and the restricted bindings
 * `arguments` and `eval`, plus `undefined`. Manifest validation rejects names
 * whose generated identifiers are among them; the template `ident` helper
 * refuses them as a last line of defence. Both read this set, so they cannot
 * disagree.
 */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(
  [
    'await break case catch class const continue debugger default delete do else enum export extends false',
    'finally for function if implements import in instanceof interface let new null package private protected',
    'public return static super switch this throw true try typeof var void while with yield arguments eval undefined',
  ]
    .join(' ')
    .split(' '),
)

/**
 * PostgreSQL's identifier limit (NAMEDATALEN - 1): longer table and column
 * names are silently truncated, so two of them could become one.
 */
export const MAX_SQL_IDENTIFIER_LENGTH = 63

/** Why `name` cannot be a generated identifier, as a clause (`is a JavaScript reserved word`), or null. */
export function explainUnsafeIdentifier(name: string): string | null {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) return 'is not a valid identifier'
  if (RESERVED_WORDS.has(name)) return 'is a reserved word in JavaScript modules'
  return null
}
