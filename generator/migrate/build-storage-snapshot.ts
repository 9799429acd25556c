import { snapshotTables, type StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import type { ApiModel } from '../model/api-model.js'

/** The storage model of a manifest: what its migrations must lead to. */
export function buildStorageSnapshot(model: ApiModel): StorageSnapshot {
  return snapshotTables(model.resources.map((resource) => resource.definition))
}
