import pluralize from 'pluralize'
import { describeValue } from './describe-value.js'
import { explainUnsafeName } from './explain-unsafe-name.js'
import { findActionVerbs, type FoundVerb } from './find-action-verbs.js'
import { findCaseProblem } from './find-case-problem.js'
import { headNounIndex } from './head-noun-index.js'
import type { RuleId } from './rules.js'
import { suggestResourceName } from './suggest-resource-name.js'

/** One naming diagnostic, before it is given a position. */
export interface NameProblem {
  readonly code: RuleId
  readonly message: string
}

/**
 * The naming rule a resource name breaks, or null. Rules are tried in order
 * UNSAFE_NAME, NAMING_LOWERCASE, NAMING_HYPHENS, NAMING_NO_VERBS, NAMING_PLURAL
 * and only the first broken one is reported, because its suggestion already
 * fixes all of them (`create_order` → `orders`): one name, one diagnostic.
 * With `singular:` declared the plural check is skipped; it checks the head
 * noun (headNounIndex).
 */
export function findResourceNameProblem(name: string, hasDeclaredSingular: boolean): NameProblem | null {
  const unsafe = explainUnsafeName(name, 'resource')
  if (unsafe !== null) {
    return {
      code: 'UNSAFE_NAME',
      message: `resource name ${describeValue(name)} ${unsafe}`,
    }
  }
  const fix = suggestResourceName(name, hasDeclaredSingular)
  const hint = fix === null ? '' : `; did you mean "${fix}"?`
  const caseProblem = findCaseProblem(name, '-')
  if (caseProblem === 'case') {
    return {
      code: 'NAMING_LOWERCASE',
      message: `collection "${name}" must be entirely lowercase (paths are lowercase)${hint}`,
    }
  }
  if (caseProblem === 'separators') {
    return {
      code: 'NAMING_HYPHENS',
      message: `collection "${name}" must separate its words with single hyphens, not underscores, spaces or camelCase${hint}`,
    }
  }
  const words = name.split('-')
  const [verb] = findActionVerbs(words)
  if (verb !== undefined) return { code: 'NAMING_NO_VERBS', message: explainVerb(name, words, verb) + hint }
  const head = words[headNounIndex(words)] ?? name
  if (!hasDeclaredSingular && !pluralize.isPlural(head)) {
    return { code: 'NAMING_PLURAL', message: `collection "${name}" must be a plural noun${hint}` }
  }
  return null
}

const METHOD_TARGETS = {
  GET: 'GET on the collection or an item',
  POST: 'POST on the collection',
  'PUT or PATCH': 'PUT or PATCH on an item',
  DELETE: 'DELETE on an item',
} as const

function explainVerb(name: string, words: readonly string[], found: FoundVerb): string {
  const { method, noun } = found.verb
  const options: string[] = []
  if (method !== null) options.push(`the HTTP method (${METHOD_TARGETS[method]})`)
  if (noun !== null) options.push(`a resource of its own (POST /${noun})`)
  if (options.length === 0)
    options.push('the HTTP method (POST, GET, PUT, PATCH or DELETE) or to a resource of its own')
  const verbIs = words.length === 1 ? 'is' : 'contains'
  return `collection "${name}" ${verbIs} the verb "${found.word}": paths name things, and the action belongs to ${options.join(' or to ')}`
}
