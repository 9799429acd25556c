/**
 * The versions newer than `name` among `names`, oldest first: a higher major
 * (`v10` is newer than `v9`), whatever order the manifest lists them in.
 * Names that are not `v<major>` (VERSION_NAME reports them) are left out.
 */
export function listNewerVersions(name: string, names: readonly string[]): string[] {
  const major = majorOf(name)
  if (major === null) return []
  return names.filter((other) => (majorOf(other) ?? 0) > major).sort((a, b) => majorOf(a)! - majorOf(b)!)
}

function majorOf(name: string): number | null {
  const match = /^v([1-9][0-9]*)$/.exec(name)
  return match ? Number(match[1]) : null
}
