import pluralize from 'pluralize'

/**
 * The singular of a resource name: the declared `singular:` when there is one,
 * otherwise the name with its last hyphen-separated word singularized
 * (`order-items` → `order-item`). Only the last word is the head noun.
 */
export function singularOf(resourceName: string, declared?: string): string {
  if (declared !== undefined) return declared
  const words = resourceName.split('-')
  const last = words.pop() ?? ''
  return [...words, pluralize.singular(last)].join('-')
}
