import { didYouMean } from '../diagnostics/did-you-mean.js'

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
