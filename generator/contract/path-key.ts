/**
 * What identifies a path across two documents: without the version prefix
 * (`/v1`, from `info.version`), so consecutive versions compare, and with
 * parameter names blanked, since clients fill them by position.
 */
export function pathKey(path: string, version: string): string {
  const unprefixed = version !== '' && path.startsWith(`/${version}/`) ? path.slice(version.length + 1) : path
  return unprefixed.replace(/\{[^}]*\}/g, '{}')
}

/** The static segments of a path key: `/posts/{}/comments` → posts, comments. */
export function collectionsOf(key: string): string[] {
  return key.split('/').filter((segment) => segment !== '' && segment !== '{}')
}
