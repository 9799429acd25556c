/** Version names oldest first, by major number (`v2` before `v10`), whatever the manifest's order. */
export function orderVersions(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => majorOf(a) - majorOf(b) || (a < b ? -1 : a > b ? 1 : 0))
}

function majorOf(name: string): number {
  return Number(/[0-9]+/.exec(name)?.[0] ?? Number.MAX_SAFE_INTEGER)
}
