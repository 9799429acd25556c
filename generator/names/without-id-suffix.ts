import { relationKeyOf } from './relation-key-of.js'

/** `author` of `author_id`: the belongs-to name whose key is `key` (relationKeyOf backwards). */
export function withoutIdSuffix(key: string): string {
  return key.slice(0, -relationKeyOf('').length)
}
