import pluralize from 'pluralize'
import { findActionVerbs } from './find-action-verbs.js'
import { splitWords } from './find-case-problem.js'
import { headNounIndex } from './head-noun-index.js'

const RESOURCE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/**
 * The name `name` should have had, fixing every naming rule at once: lowercase,
 * hyphen-separated, verbs removed (`create-orders` → `orders`) or turned into
 * the noun of the action (`submit-orders` → `order-submissions`), head noun
 * (headNounIndex) plural unless the resource declares `singular:`. Null when no fix can be
 * derived (`do`) or the name is already right.
 */
export function suggestResourceName(name: string, hasDeclaredSingular: boolean): string | null {
  const words = splitWords(name)
  const verbs = findActionVerbs(words)
  const kept = words.filter((_, index) => !verbs.some((found) => found.index === index))
  // A verb that is only an action (`submit`) becomes the noun naming it; one
  // an HTTP method already performs (`create`) is dropped, unless it is the
  // last word and has a noun (`search` → `searches`).
  const nounVerb = verbs.find(
    ({ verb, index }) => verb.noun !== null && (verb.method === null || index === words.length - 1),
  )
  let fixed: string[]
  if (nounVerb?.verb.noun) {
    // The other words become modifiers of that noun, so they are singular.
    fixed = [...kept.map((word) => pluralize.singular(word)), nounVerb.verb.noun]
  } else {
    if (kept.length === 0) return null
    const head = headNounIndex(kept)
    const noun = kept[head]!
    fixed = kept.map((word, index) =>
      index === head && !hasDeclaredSingular && !pluralize.isPlural(noun) ? pluralize.plural(noun) : word,
    )
  }
  const suggestion = fixed.join('-')
  return suggestion !== name && RESOURCE_NAME.test(suggestion) ? suggestion : null
}
