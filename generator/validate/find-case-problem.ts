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

/**
 * The words of a name, lowercased, however they were separated: hyphens,
 * underscores, spaces or camelCase (`orderItems`, `order_items`,
 * `HTTPLogs` → `http`, `logs`). Naming checks compare a name with its words
 * joined the expected way and suggest that as the fix.
 */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[-_\s]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase())
}
