import type { LoadedManifest } from '../manifest/load-manifest.js'
import { findKeyRange, type SourceRange } from '../manifest/source-ranges.js'
import type { DerivedVersions } from '../versions/derive-versions.js'
import type { VersionChange } from '../versions/version-change.js'

/** A validated manifest's declared `changes`, by version name, in manifest order, and where each entry is. */
export interface DeclaredChanges {
  readonly byVersion: ReadonlyMap<string, readonly VersionChange[]>
  /** The source range of entry `index` of `versions.<version>.changes`. */
  locate(version: string, index: number): SourceRange
}

export function listDeclaredChanges(loaded: LoadedManifest, { versions }: DerivedVersions): DeclaredChanges {
  return {
    locate: (version, index) => findKeyRange(loaded.document, ['versions', version, 'changes', index]),
    byVersion: new Map(versions.map((version) => [version.name, version.changes])),
  }
}
