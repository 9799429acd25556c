import type { CompiledQuery, Kysely } from 'kysely'
import type { TableChange } from '../../runtime/migrations/migration-plan.js'
import type { RenamedTables } from './compare-table-columns.js'
import type { SnapshotTable } from '../../runtime/migrations/storage-snapshot.js'
import type { ColumnTypeMapping } from '../../runtime/storage/column-type-mapping.js'
import type { DialectSyntax } from '../../runtime/storage/storage-dialect.js'

/** A Kysely builder or `sql` template, compiled without a connection. */
export interface MigrationStatement {
  compile(db: Kysely<any>): CompiledQuery
}

/** One line of a migration file's body: a statement, or a comment telling the reviewer why what follows. */
export type MigrationLine = { readonly statement: MigrationStatement } | { readonly comment: string }

/** What renderMigrationSql needs from a dialect; sqlite/ and postgres/ each provide one. */
export interface MigrationSqlDialect {
  /** Compiles the dialect's SQL without a connection (DummyDriver). */
  readonly db: Kysely<any>
  readonly columnTypes: ColumnTypeMapping
  readonly syntax: DialectSyntax
  /**
   * The statements that turn `before` into `after` (a table that exists
   * before and after the migration). `tableNames` holds every table before
   * and after it: names a temporary table must not take.
   */
  alterTable(
    before: SnapshotTable,
    after: SnapshotTable,
    sources: TableChange['sources'],
    renamedTables: RenamedTables,
    tableNames: ReadonlySet<string>,
  ): MigrationLine[]
}
