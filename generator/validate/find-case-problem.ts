import { splitWords } from './split-words.js'

/**
 * How `name` departs from lowercase words joined by `separator`: `case` when
 * only letter case is wrong (`Orders`), `separators` when words are split some
 * other way (`orderItems`, `order_items`, `order--items`), null when it is right.
 */
export function findCaseProblem(name: string, separator: '-' | '_'): 'case' | 'separators' | null {
  const expected = splitWords(name).join(separator)
  if (expected === name) return null
  return name.toLowerCase() === expected ? 'case' : 'separators'
}
