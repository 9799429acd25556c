import { readManifest } from '../generate.js'
import { loadManifest, type LoadedManifest } from '../manifest/load-manifest.js'
import { parseVersionChanges } from '../manifest/parse-version-changes.js'
import type { VersionChange } from '../model/version-change.js'
import { validateManifest } from '../validate/validate-manifest.js'

/** A validated manifest's declared `changes`, by version name, in manifest order, and the manifest they were read from. */
export interface DeclaredChanges {
  readonly loaded: LoadedManifest
  readonly text: string
  readonly byVersion: ReadonlyMap<string, readonly VersionChange[]>
}

/** Each version's declared `changes`, from a manifest that has validated. */
export async function loadDeclaredChanges(manifestFile: string, cwd: string): Promise<DeclaredChanges> {
  const text = (await readManifest(cwd, manifestFile)).toString('utf8')
  const loaded = loadManifest(manifestFile, text)
  const { manifest } = validateManifest(loaded)
  if (manifest === null) throw new Error(`internal error: ${manifestFile} validated, but does not load`)
  return {
    loaded,
    text,
    byVersion: new Map(
      Object.entries(manifest.versions).map(([name, version]) => [name, parseVersionChanges(version?.changes)]),
    ),
  }
}
