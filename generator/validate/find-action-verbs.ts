import { ACTION_VERBS, type ActionVerb } from './rules.js'

/** One word of a name that is a verb in ACTION_VERBS. */
export interface FoundVerb {
  readonly word: string
  readonly index: number
  readonly verb: ActionVerb
}

/**
 * The words of a hyphenated name that are action verbs, honouring each verb's
 * position rule (`search-results` has none; `search` and `user-search` do).
 */
export function findActionVerbs(words: readonly string[]): FoundVerb[] {
  return words.flatMap((word, index) => {
    // hasOwn: a word such as `constructor` must not find Object.prototype's.
    const verb = Object.hasOwn(ACTION_VERBS, word) ? ACTION_VERBS[word] : undefined
    if (verb === undefined || (verb.position === 'last' && index !== words.length - 1)) return []
    return [{ word, index, verb }]
  })
}
