/** Prepositions after which a name qualifies its head noun: `sales-by-month`, `visits-per-day`. */
const QUALIFYING_PREPOSITIONS: readonly string[] = ['by', 'per']

/**
 * The index of a hyphenated name's head noun, the word NAMING_PLURAL checks:
 * the last word, or the word before `by` or `per` when one follows it
 * (`sales-by-month` names sales, grouped by month).
 */
export function headNounIndex(words: readonly string[]): number {
  const preposition = words.findIndex((word, index) => index > 0 && QUALIFYING_PREPOSITIONS.includes(word))
  return preposition > 0 && preposition < words.length - 1 ? preposition - 1 : words.length - 1
}
