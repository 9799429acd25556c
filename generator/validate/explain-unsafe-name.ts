import { MAX_SQL_IDENTIFIER_LENGTH, RESERVED_WORDS } from '../names/identifiers.js'

/** Properties every JavaScript object has; a name equal to one corrupts maps keyed by name. */
const OBJECT_INTERNALS: readonly string[] = ['__proto__', 'constructor', 'prototype']

/**
 * What a name is used as: resource names and singulars become paths, files,
 * tables, foreign keys and identifiers; field names become properties,
 * columns and identifiers; relation names become properties and (belongs-to)
 * columns.
 */
export type NameKind = 'resource' | 'field' | 'relation' | 'singular'

/**
 * Why `name` could escape a URL path, a file name or a generated identifier,
 * or would be cut short as a SQL name, and what to do instead, as a clause
 * (`contains "/", which ...; use ...`), or null when it is safe. Case and
 * separator style are not judged here: the naming rules do that. Names the
 * generator derives from a safe name (a resource's identifier and type,
 * foreign keys) are checked by checkGeneratedNames.
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
  if (name.length > MAX_SQL_IDENTIFIER_LENGTH) {
    return `is ${name.length} characters long; ${SQL_NAMES[kind]}, and PostgreSQL cuts names longer than ${MAX_SQL_IDENTIFIER_LENGTH} characters (so two could become one); shorten it to at most ${MAX_SQL_IDENTIFIER_LENGTH}`
  }
  if (OBJECT_INTERNALS.includes(name.toLowerCase())) {
    return 'is a built-in property of every JavaScript object and would corrupt lookups by name; choose another name'
  }
  if ((kind === 'field' || kind === 'relation') && RESERVED_WORDS.has(name)) {
    return 'is a JavaScript reserved word and would break generated code; choose another name'
  }
  return null
}

const SHAPES: Readonly<Record<NameKind, string>> = {
  resource: 'use lowercase words separated by hyphens, starting with a letter',
  singular: 'use lowercase words separated by hyphens, starting with a letter',
  field: 'use lower_snake_case, starting with a letter',
  relation: 'use lower_snake_case, starting with a letter',
}

/** Why a name of this kind is held to PostgreSQL's identifier limit. */
const SQL_NAMES: Readonly<Record<NameKind, string>> = {
  resource: 'it names a SQL table',
  singular: 'it names the foreign key columns that point at the resource',
  field: 'it names a SQL column',
  relation: 'relation names are held to the limit of the columns they name (a belongs-to adds <relation>_id)',
}
