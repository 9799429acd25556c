import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import { MIGRATION_SQL_FILES, SNAPSHOT_FILE, type MigrationDialect } from '../../runtime/migrations/migration-files.js'
import { snapshotTables } from '../../runtime/migrations/storage-snapshot.js'
import { buildCreateStatements } from '../../runtime/storage/build-create-statements.js'
import { postgresColumnTypes } from '../../runtime/storage/postgres/postgres-column-types.js'
import { postgresSyntax } from '../../runtime/storage/postgres/postgres-syntax.js'
import { sortTablesByDependency } from '../../runtime/storage/sort-tables-by-dependency.js'
import { sqliteColumnTypes } from '../../runtime/storage/sqlite/sqlite-column-types.js'
import { sqliteSyntax } from '../../runtime/storage/sqlite/sqlite-syntax.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'

/** Migration directories written by hand, as `migrate create` would write them. */

const COMPILERS = {
  sqlite: {
    adapter: () => new SqliteAdapter(),
    introspector: (db: Kysely<any>) => new SqliteIntrospector(db),
    compiler: () => new SqliteQueryCompiler(),
    types: sqliteColumnTypes,
    syntax: sqliteSyntax,
  },
  postgres: {
    adapter: () => new PostgresAdapter(),
    introspector: (db: Kysely<any>) => new PostgresIntrospector(db),
    compiler: () => new PostgresQueryCompiler(),
    types: postgresColumnTypes,
    syntax: postgresSyntax,
  },
}

/** The statements prepare() runs to create `tables`, as one SQL file for `dialect` (table names unqualified). */
export function renderCreateScript(tables: readonly TableDefinition[], dialect: MigrationDialect): string {
  const { adapter, introspector, compiler, types, syntax } = COMPILERS[dialect]
  const db = new Kysely<any>({
    dialect: {
      createAdapter: adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: introspector,
      createQueryCompiler: compiler,
    },
  })
  const statements = buildCreateStatements(db, sortTablesByDependency(tables), types, syntax)
  return statements.map((statement) => `${statement.compile().sql};\n`).join('')
}

export interface MigrationContents {
  readonly sqlite: string
  readonly postgres: string
  /** The tables after it, for snapshot.json (default none: only adoption reads it). */
  readonly tables?: readonly TableDefinition[]
}

/** Writes `directory/name/{sqlite.sql,postgres.sql,snapshot.json}`; returns the migration's directory. */
export function writeMigration(directory: string, name: string, contents: MigrationContents): string {
  const migration = join(directory, name)
  mkdirSync(migration, { recursive: true })
  writeFileSync(join(migration, MIGRATION_SQL_FILES.sqlite), contents.sqlite)
  writeFileSync(join(migration, MIGRATION_SQL_FILES.postgres), contents.postgres)
  writeFileSync(join(migration, SNAPSHOT_FILE), `${JSON.stringify(snapshotTables(contents.tables ?? []), null, 2)}\n`)
  return migration
}

/** `0001_init`: creates `tables` as prepare() would. */
export function writeInitialMigration(directory: string, tables: readonly TableDefinition[]): string {
  return writeMigration(directory, '0001_init', {
    sqlite: renderCreateScript(tables, 'sqlite'),
    postgres: renderCreateScript(tables, 'postgres'),
    tables,
  })
}

/** The same SQL for both dialects (plain CREATE TABLE and the like). */
export function bothDialects(sql: string): MigrationContents {
  return { sqlite: sql, postgres: sql }
}
