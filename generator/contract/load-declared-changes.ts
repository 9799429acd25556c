import { readManifest } from '../generate.js'
import { loadManifest } from '../manifest/load-manifest.js'
import { parseVersionChanges } from '../manifest/parse-version-changes.js'
import type { VersionChange } from '../model/version-change.js'
import { validateManifest } from '../validate/validate-manifest.js'

/** Each version's declared `changes`, by version name, from a manifest that has validated. */
export async function loadDeclaredChanges(
  manifestFile: string,
  cwd: string,
): Promise<ReadonlyMap<string, readonly VersionChange[]>> {
  const text = (await readManifest(cwd, manifestFile)).toString('utf8')
  const { manifest } = validateManifest(loadManifest(manifestFile, text))
  if (manifest === null) throw new Error(`internal error: ${manifestFile} validated, but does not load`)
  return new Map(
    Object.entries(manifest.versions).map(([name, version]) => [name, parseVersionChanges(version?.changes)]),
  )
}
