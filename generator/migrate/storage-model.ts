import { snapshotTables, type StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import type { Diagnostic } from '../diagnostics/diagnostic.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import { findKeyRange } from '../manifest/source-ranges.js'
import type { ApiModel } from '../model/api-model.js'
import type { MigrationProblem } from './migration-problem.js'
import { listTableOrigins, type TableOrigin } from './table-origins.js'

/** What a manifest's migrations must lead to: its tables, and where each comes from (renames, manifest paths). */
export interface StorageModel {
  readonly snapshot: StorageSnapshot
  readonly origins: ReadonlyMap<string, TableOrigin>
}

export function buildStorageModel(model: ApiModel): StorageModel {
  return {
    snapshot: snapshotTables(model.resources.map((resource) => resource.definition)),
    origins: listTableOrigins(model),
  }
}

/** Migration problems as diagnostics at their manifest keys. */
export function locateMigrationProblems(loaded: LoadedManifest, problems: readonly MigrationProblem[]): Diagnostic[] {
  return problems.map((problem) => {
    const range = findKeyRange(loaded.document, problem.path)
    return { ...problem, file: loaded.file, start: range.start, end: range.end }
  })
}
