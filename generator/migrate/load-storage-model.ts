import type { StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import type { Diagnostic } from '../diagnostics/diagnostic.js'
import { readManifest } from '../generate.js'
import { loadManifest, type LoadedManifest } from '../manifest/load-manifest.js'
import { findKeyRange } from '../manifest/source-ranges.js'
import { buildModel } from '../model/build-model.js'
import { validateManifest } from '../validate/validate-manifest.js'
import { buildStorageSnapshot } from './build-storage-snapshot.js'
import type { MigrationProblem } from './migration-problem.js'
import { listTableOrigins, type TableOrigin } from './table-origins.js'

/** The manifest's storage model, or the diagnostics that keep it from having one. */
export interface LoadedStorageModel {
  readonly diagnostics: readonly Diagnostic[]
  /** Manifest texts by file name, for rendering diagnostics with source lines. */
  readonly sources: ReadonlyMap<string, string>
  /** Null when the manifest has errors. */
  readonly storage: { readonly snapshot: StorageSnapshot; readonly origins: ReadonlyMap<string, TableOrigin> } | null
  /** Migration problems as diagnostics at their manifest keys. */
  readonly locate: (problems: readonly MigrationProblem[]) => Diagnostic[]
}

/** Reads and validates the manifest, then builds its storage snapshot and the origins of its tables. */
export async function loadStorageModel(manifestFile: string, cwd: string): Promise<LoadedStorageModel> {
  const text = (await readManifest(cwd, manifestFile)).toString('utf8')
  const loaded = loadManifest(manifestFile, text)
  const { manifest, diagnostics } = validateManifest(loaded)
  const model = manifest === null ? null : buildModel(manifest, manifestFile)
  return {
    diagnostics,
    sources: new Map([[manifestFile, text]]),
    storage: model === null ? null : { snapshot: buildStorageSnapshot(model), origins: listTableOrigins(model) },
    locate: (problems) => problems.map((problem) => locateProblem(loaded, problem)),
  }
}

function locateProblem(loaded: LoadedManifest, problem: MigrationProblem): Diagnostic {
  const range = findKeyRange(loaded.document, problem.path)
  return { ...problem, file: loaded.file, start: range.start, end: range.end }
}
