/** JSON Merge Patch (RFC 7396): accepted by PATCH, besides application/json. */
export const MERGE_PATCH = 'application/merge-patch+json'

/**
 * The charset a Content-Type declares (`application/json; charset=UTF-16` →
 * `utf-16`), lowercased and unquoted, or undefined when it declares none.
 * https://www.rfc-editor.org/rfc/rfc9110#section-8.3.1
 */
export function declaredCharset(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType)
  if (!match) return undefined
  return (match[1] ?? match[2]!).toLowerCase()
}
