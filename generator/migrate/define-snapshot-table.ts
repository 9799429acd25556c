import type { SnapshotTable } from '../../runtime/migrations/storage-snapshot.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'

/**
 * The table definition the storage DDL (build-create-statements.ts) reads,
 * for a snapshot table: only what the database stores is set; the API parts
 * (resource path, singular, references from elsewhere) stay empty.
 */
export function defineSnapshotTable(table: SnapshotTable): TableDefinition {
  return {
    name: table.name,
    resource: table.name,
    singular: table.name,
    columns: table.columns.map((column) => ({ ...column, readOnly: false })),
    referencedBy: [],
    indexes: table.indexes.map((columns) => ({ columns })),
    ...(table.softDelete ? { softDelete: true as const } : {}),
    ...(table.uniques ? { uniques: table.uniques } : {}),
  }
}
