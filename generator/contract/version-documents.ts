const VERSION_DOCUMENT = /^(v(\d+))\/openapi\.json$/

/** The versions whose OpenAPI document is among `paths` (`v1/openapi.json`, relative to the output), oldest first. */
export function listVersionDocuments(paths: Iterable<string>): string[] {
  const versions = [...paths].flatMap((path) => {
    const match = VERSION_DOCUMENT.exec(path)
    return match ? [{ name: match[1]!, major: Number(match[2]) }] : []
  })
  return versions.sort((a, b) => a.major - b.major).map(({ name }) => name)
}

/** Where a version's OpenAPI document is generated, relative to the output directory. */
export function versionDocumentPath(version: string): string {
  return `${version}/openapi.json`
}

/** The version a breaking change needs: one major above the newest (`v3` after `v1`, `v2`). */
export function nextMajorVersion(versions: readonly string[]): string {
  const majors = versions.map((version) => Number(version.slice(1))).filter(Number.isInteger)
  return `v${Math.max(0, ...majors) + 1}`
}
