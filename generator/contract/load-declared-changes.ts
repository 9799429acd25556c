import { readManifest } from '../generate.js'
import { loadManifest } from '../manifest/load-manifest.js'
import { findKeyRange, type SourceRange } from '../manifest/source-ranges.js'
import { parseVersionChanges } from '../versions/version-change.js'
import type { VersionChange } from '../versions/version-change.js'
import { validateManifest } from '../validate/validate-manifest.js'

/** A validated manifest's declared `changes`, by version name, in manifest order, and where each entry is. */
export interface DeclaredChanges {
  readonly text: string
  readonly byVersion: ReadonlyMap<string, readonly VersionChange[]>
  /** The source range of entry `index` of `versions.<version>.changes`. */
  locate(version: string, index: number): SourceRange
}

/** Each version's declared `changes`, from a manifest that has validated. */
export async function loadDeclaredChanges(manifestFile: string, cwd: string): Promise<DeclaredChanges> {
  const text = (await readManifest(cwd, manifestFile)).toString('utf8')
  const loaded = loadManifest(manifestFile, text)
  const { manifest } = validateManifest(loaded)
  if (manifest === null) throw new Error(`internal error: ${manifestFile} validated, but does not load`)
  return {
    text,
    locate: (version, index) => findKeyRange(loaded.document, ['versions', version, 'changes', index]),
    byVersion: new Map(
      Object.entries(manifest.versions).map(([name, version]) => [name, parseVersionChanges(version?.changes)]),
    ),
  }
}
