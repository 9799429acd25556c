/** Capital I with dot above, which foldCase maps to SMALL_I before lowercasing. */
export const CAPITAL_I_WITH_DOT = 'İ'
export const SMALL_I = 'i'
/** Greek small final sigma, which foldCase maps to SIGMA after lowercasing. */
export const FINAL_SIGMA = 'ς'
export const SIGMA = 'σ'

/**
 * The case folding `contains` and `starts_with` compare under, the same on
 * every dialect and whatever the database's locale: Unicode's default full
 * lowercase mapping (locale-independent, as String.prototype.toLowerCase and
 * ICU's root locale implement it: `É` → `é`, `Ä` → `ä`, `ẞ` → `ß`, `Σ` → `σ`),
 * with two changes so that a substring folds as it does inside a word:
 * `İ` becomes `i` (its simple mapping; the full one appends a combining dot,
 * so `İstanbul` would not contain `istanbul`), and final `ς` becomes `σ` (the
 * full mapping picks `ς` or `σ` by the letter's place in its word, which a
 * substring cannot know). `ß` stays `ß`: it does not match `ss`.
 *
 * SQLite calls this function (registered on its connection); PostgreSQL runs
 * the same steps with lower() under the ICU root collation (postgres-syntax.ts).
 */
export function foldCase(text: string): string {
  return text.replaceAll(CAPITAL_I_WITH_DOT, SMALL_I).toLowerCase().replaceAll(FINAL_SIGMA, SIGMA)
}
