/** Version names oldest first, by major number (`v2` before `v10`), whatever the manifest's order. */
export function orderVersions(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => majorOf(a) - majorOf(b) || (a < b ? -1 : a > b ? 1 : 0))
}

function majorOf(name: string): number {
  return Number(/[0-9]+/.exec(name)?.[0] ?? Number.MAX_SAFE_INTEGER)
}

/**
 * The versions newer than `name` among `names`, oldest first: a higher major
 * (`v10` is newer than `v9`), whatever order the manifest lists them in.
 * Names that are not `v<major>` (VERSION_NAME reports them) are left out.
 */
export function listNewerVersions(name: string, names: readonly string[]): string[] {
  const major = declaredMajorOf(name)
  if (major === null) return []
  return names
    .filter((other) => (declaredMajorOf(other) ?? 0) > major)
    .sort((a, b) => declaredMajorOf(a)! - declaredMajorOf(b)!)
}

function declaredMajorOf(name: string): number | null {
  const match = /^v([1-9][0-9]*)$/.exec(name)
  return match ? Number(match[1]) : null
}
