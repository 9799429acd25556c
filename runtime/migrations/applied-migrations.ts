import type { SqlExecutor, StorageDialect } from '../storage/storage-dialect.js'
import { MIGRATIONS_TABLE } from './migration-files.js'
import type { MigrationFile } from './read-migration-files.js'

/** A row of the migrations table (MIGRATIONS_TABLE, in the storage's namespace). */
export interface AppliedMigration {
  readonly id: string
  readonly name: string
  readonly checksum: string
  /** RFC 3339 UTC. */
  readonly appliedAt: string
}

/** The migrations the table records, in id order. The table must exist. */
export async function readAppliedMigrations(
  dialect: StorageDialect,
  executor: SqlExecutor,
): Promise<AppliedMigration[]> {
  const { sql, parameters } = dialect.db
    .selectFrom(MIGRATIONS_TABLE)
    .select(['id', 'name', 'checksum', 'applied_at'])
    .orderBy('id')
    .compile()
  const rows = await executor.execute(sql, [...parameters])
  return rows.map((row) => ({
    id: String(row.id),
    name: String(row.name),
    checksum: String(row.checksum),
    appliedAt: String(row.applied_at),
  }))
}

/** Creates the migrations table when it does not exist. */
export async function createMigrationsTable(dialect: StorageDialect, executor: SqlExecutor): Promise<void> {
  const { sql, parameters } = dialect.db.schema
    .createTable(MIGRATIONS_TABLE)
    .ifNotExists()
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('checksum', 'text', (column) => column.notNull())
    .addColumn('applied_at', dialect.columnTypes.sqlTypes.datetime, (column) => column.notNull())
    .compile()
  await executor.execute(sql, [...parameters])
}

/** Records `file` as applied now. */
export async function recordAppliedMigration(
  dialect: StorageDialect,
  executor: SqlExecutor,
  file: MigrationFile,
): Promise<void> {
  const { sql, parameters } = dialect.db
    .insertInto(MIGRATIONS_TABLE)
    .values({ id: file.id, name: file.name, checksum: file.checksum, applied_at: new Date().toISOString() })
    .compile()
  await executor.execute(sql, [...parameters])
}
