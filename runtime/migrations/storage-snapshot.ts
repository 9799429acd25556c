import type { FieldType } from '../contract/field-type.js'
import type { OnDelete, ColumnValue, TableDefinition } from '../contract/table-definition.js'

/**
 * The storage model of a manifest: what a migration's `snapshot.json` holds,
 * and what `restmint migrate create` compares. Only what the database stores
 * is here; `enum`, bounds, patterns and formats are checked by the server and
 * need no migration.
 */
export interface StorageSnapshot {
  readonly restmint_snapshot: 1
  /** Sorted by name. */
  readonly tables: readonly SnapshotTable[]
}

export interface SnapshotTable {
  readonly name: string
  /** In the table's column order: `id`, declared fields and foreign keys, `created_at`, `updated_at`. */
  readonly columns: readonly SnapshotColumn[]
  /** Declared indexes beyond the primary key, unique constraints and foreign keys (always indexed), as column lists. */
  readonly indexes: readonly (readonly string[])[]
  /** `soft_delete: true`: its unique columns are unique among live rows only (partial unique indexes). */
  readonly softDelete?: true
  /** Composite unique constraints as column lists; absent when none (snapshots written before they existed). */
  readonly uniques?: readonly (readonly string[])[]
}

export interface SnapshotColumn {
  readonly name: string
  readonly type: FieldType
  readonly nullable: boolean
  readonly unique: boolean
  /** The column's default, null when it has none. */
  readonly default: ColumnValue
  /** Foreign key to another table's `id`. */
  readonly references?: { readonly table: string; readonly onDelete: OnDelete }
  /** `decimal`: NUMERIC(precision, scale) on PostgreSQL; changing either is a migration. */
  readonly precision?: number
  readonly scale?: number
}

/** The snapshot of the tables generated `schema.ts` defines. */
export function snapshotTables(tables: readonly TableDefinition[]): StorageSnapshot {
  return {
    restmint_snapshot: 1,
    tables: [...tables]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((table) => ({
        name: table.name,
        columns: table.columns.map((column) => ({
          name: column.name,
          type: column.type,
          nullable: column.nullable,
          unique: column.unique,
          default: column.default,
          ...(column.references ? { references: { ...column.references } } : {}),
          ...(column.precision !== undefined ? { precision: column.precision, scale: column.scale ?? 0 } : {}),
        })),
        indexes: (table.indexes ?? []).map((index) => [...index.columns]),
        ...(table.softDelete ? { softDelete: true as const } : {}),
        ...(table.uniques?.length ? { uniques: table.uniques.map((columns) => [...columns]) } : {}),
      })),
  }
}
