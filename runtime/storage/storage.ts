import type { Row, TableDefinition } from '../table-definition.js'

/** Equality conditions on columns, e.g. `{ order_id: 3 }` for a nested route. */
export type Scope = Readonly<Record<string, string | number | boolean>>

export interface ListOptions {
  readonly scope: Scope
  readonly limit: number
  readonly offset: number
}

export interface ListResult {
  readonly rows: Row[]
  readonly total: number
}

/**
 * One database behind the generated API. Both dialects (sqlite/, postgres/)
 * implement it with the same file set. Rows going in and out are decoded JS
 * values: booleans as booleans, `date` as `YYYY-MM-DD`, `datetime` as RFC 3339
 * UTC strings. The storage owns `id`, `created_at` and `updated_at`.
 *
 * Constraint failures surface as the errors in storage-errors.ts, never as
 * driver errors.
 */
export interface Storage {
  /**
   * Creates missing tables (and their indexes). A table that exists but
   * disagrees with its definition makes this throw SchemaMismatchError naming
   * every difference; nothing is ever altered or dropped.
   */
  prepare(): Promise<void>
  list(table: TableDefinition, options: ListOptions): Promise<ListResult>
  find(table: TableDefinition, id: number, scope?: Scope): Promise<Row | undefined>
  /** Inserts, stamping `created_at`/`updated_at`; returns the stored row. */
  insert(table: TableDefinition, values: Row): Promise<Row>
  /** Updates the given columns and `updated_at`; undefined when no row matches. */
  update(table: TableDefinition, id: number, values: Row, scope?: Scope): Promise<Row | undefined>
  /**
   * Deletes in one transaction, cascading to `onDelete: cascade` references;
   * throws RowReferencedError when a `restrict` reference still points here.
   * Returns false when no row matches.
   */
  delete(table: TableDefinition, id: number, scope?: Scope): Promise<boolean>
  close(): Promise<void>
}
