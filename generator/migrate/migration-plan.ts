import type { ColumnValue } from '../../runtime/contract/table-definition.js'
import type { SnapshotTable, StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'

/**
 * What `restmint migrate create` decided to change, before it is written as
 * SQL for each dialect. The planner (comparing two snapshots, with the
 * manifest's `renamed_from`, `--backfill` and `--allow-data-loss`) produces
 * it; each dialect's renderer turns it into statements.
 */
export interface MigrationPlan {
  /** The state the existing migrations lead to (empty tables list for the first migration). */
  readonly before: StorageSnapshot
  /** The manifest's storage model: what this migration leads to. */
  readonly after: StorageSnapshot
  /** In an order the statements can run in: created tables after the tables they reference, dropped ones before. */
  readonly changes: readonly TableChange[]
  /** One line per table, column or value this migration destroys (empty unless --allow-data-loss allowed it). */
  readonly dataLoss: readonly string[]
}

/**
 * One table created, dropped or changed (renamed, columns added, dropped,
 * renamed or altered, indexes added or dropped). Tables that do not change
 * are absent.
 */
export interface TableChange {
  /** null: the table is new. */
  readonly before: SnapshotTable | null
  /** null: the table is dropped. */
  readonly after: SnapshotTable | null
  /** For each column of `after` (by name): where existing rows take its value from. Empty for created and dropped tables. */
  readonly sources: Readonly<Record<string, ColumnSource>>
}

/**
 * Where an existing row's value of a column comes from.
 * - `column`: the `before` column of that name (the same name, or the old name of a renamed column),
 *   converted when the type changed; `backfill` replaces NULLs when the column becomes NOT NULL.
 * - `new`: the column is added; existing rows get `backfill`, else the column's default, else NULL.
 */
export type ColumnSource =
  | { readonly kind: 'column'; readonly column: string; readonly backfill?: ColumnValue }
  | { readonly kind: 'new'; readonly backfill?: ColumnValue }
