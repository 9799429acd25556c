import { didYouMean } from '../diagnostics/did-you-mean.js'

/** A manifest value as a message shows it: strings quoted, maps and lists by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list'
  if (typeof value === 'object') return Object.keys(value).length === 0 ? 'an empty map' : 'a map'
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)
  return String(value)
}

/**
 * A value as the manifest wrote it, for a message that names it before saying
 * what is wrong with it (`default [1,2] of field "title" is not a string`):
 * JSON, cut at 60 characters.
 */
export function quoteValue(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value)
  return json.length > 60 ? `${json.slice(0, 57)}...` : json
}

/**
 * The end of a message about a name that matches none of `candidates`: a
 * did-you-mean for a near miss, otherwise the candidates under `label`
 * (`; declared resources: authors, posts`), or nothing when there are none.
 */
export function hintUnknownName(name: string, candidates: readonly string[], label: string): string {
  const suggestion = didYouMean(name, candidates)
  if (suggestion !== null) return `; did you mean "${suggestion}"?`
  return candidates.length > 0 ? `; ${label}: ${candidates.join(', ')}` : ''
}
