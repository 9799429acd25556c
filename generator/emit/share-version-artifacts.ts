/** A version's type and validator modules: what often stays the same from one version to the next. */
const SHAREABLE = /^(v\d+)\/((?:types\/[^/]+\.ts)|(?:validators\/[^/]+\.(?:js|d\.ts)))$/

/**
 * Emits each type and validator module once: an older version's module that
 * is byte-identical to the newest version's becomes a re-export of it, under
 * the same do-not-edit notice (its first two lines), so the older version
 * imports it under its own path as before.
 */
export function shareVersionArtifacts(files: ReadonlyMap<string, string>): Map<string, string> {
  const newest = [...files.keys()]
    .map((path) => /^v(\d+)\//.exec(path)?.[1])
    .filter((version) => version !== undefined)
    .reduce((highest, version) => Math.max(highest, Number(version)), 0)
  const shared = new Map<string, string>()
  for (const [path, contents] of files) {
    const match = SHAREABLE.exec(path)
    const newer = match && `v${newest}/${match[2]}`
    if (match === null || match[1] === `v${newest}` || files.get(newer!) !== contents) {
      shared.set(path, contents)
      continue
    }
    const notice = contents.split('\n').slice(0, 2).join('\n')
    const module = match[2]!.replace(/(\.d)?\.ts$/, '.js')
    shared.set(path, `${notice}\n// The same as v${newest}'s.\nexport * from '../../v${newest}/${module}'\n`)
  }
  return shared
}
