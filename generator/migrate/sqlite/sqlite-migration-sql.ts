import { onDeleteSql } from '../../../runtime/contract/table-definition.js'
import { sql, type Expression, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely'
import type { TableChange } from '../migration-plan.js'
import type { SnapshotColumn, SnapshotTable } from '../../../runtime/migrations/storage-snapshot.js'
import {
  buildCreateIndex,
  buildCreateTable,
  listLiveUniqueIndexes,
  listTableIndexes,
} from '../../../runtime/storage/build-create-statements.js'
import { buildLiveUniqueIndex } from '../../../runtime/storage/build-live-unique-index.js'
import { nameConstraint } from '../../../runtime/storage/constraint-names.js'
import { sqliteColumnTypes } from '../../../runtime/storage/sqlite/sqlite-column-types.js'
import { sqlTypeOf } from '../../../runtime/storage/column-type-mapping.js'
import { sqliteSyntax } from '../../../runtime/storage/sqlite/sqlite-syntax.js'
import {
  compareTableColumns,
  isColumnAltered,
  uniqueFormOf,
  type AddedColumn,
  type ColumnChanges,
  type RenamedTables,
} from '../compare-table-columns.js'
import { columnLiteral } from '../column-literal.js'
import { compareTableIndexes } from '../compare-table-indexes.js'
import { convertColumnValue } from '../convert-column-value.js'
import { createCompileOnlyKysely } from '../create-compile-only-kysely.js'
import { defineSnapshotTable } from '../define-snapshot-table.js'
import { MIGRATION_CREATE_OPTIONS, type MigrationLine, type MigrationSqlDialect } from '../migration-sql-dialect.js'
import { sqliteValueConversions } from './sqlite-value-conversions.js'

const db = createCompileOnlyKysely({
  adapter: () => new SqliteAdapter(),
  compiler: () => new SqliteQueryCompiler(),
  introspector: (kysely) => new SqliteIntrospector(kysely),
})
/** https://www.sqlite.org/lang_altertable.html#otheralter */
const REBUILD_PROCEDURE = 'https://www.sqlite.org/lang_altertable.html#otheralter'

/**
 * SQLite alters in place only what it can: renaming a table or a column
 * (ALTER TABLE RENAME COLUMN, SQLite 3.25, which also rewrites the indexes
 * and constraints that name it), adding a column it allows (ALTER TABLE ADD COLUMN: no UNIQUE, NOT NULL only with a
 * default, a foreign key only with a NULL default) and dropping or creating
 * indexes (which it cannot rename: they are dropped and created under the
 * new name). Any other change rebuilds the table by SQLite's documented
 * procedure: create `new_<table>` (nameRebuildTable) as the table should be, copy every row
 * converting each column, drop the old table, rename the new one, recreate
 * the indexes. The applier runs the file with foreign_keys OFF and checks
 * them (foreign_key_check) before committing.
 */
export const sqliteMigrationSql: MigrationSqlDialect = {
  db,
  columnTypes: sqliteColumnTypes,
  syntax: sqliteSyntax,
  alterTable,
}

function alterTable(
  before: SnapshotTable,
  after: SnapshotTable,
  sources: TableChange['sources'],
  renamedTables: RenamedTables,
  tableNames: ReadonlySet<string>,
): MigrationLine[] {
  const columns = compareTableColumns(before, after, sources)
  // SQLite can neither drop a UNIQUE constraint nor add one: a unique that changes form (soft_delete) rebuilds.
  const uniqueChangesForm = columns.kept.some(
    (column) => uniqueFormOf(before, column.before) !== uniqueFormOf(after, column.after) && column.after.unique,
  )
  const rebuild =
    uniqueChangesForm ||
    columns.dropped.length > 0 ||
    columns.kept.some((column) => isColumnAltered(column, renamedTables)) ||
    !columns.added.every(({ column }) => canAddColumn(column))
  return rebuild ? rebuildTable(before, after, columns, tableNames) : alterInPlace(before, after, columns)
}

/** ALTER TABLE ADD COLUMN's restrictions (https://www.sqlite.org/lang_altertable.html#altertabaddcol). */
function canAddColumn(column: SnapshotColumn): boolean {
  if (column.unique) return false
  if (column.references !== undefined && column.default !== null) return false
  return column.nullable || column.default !== null
}

function alterInPlace(before: SnapshotTable, after: SnapshotTable, columns: ColumnChanges): MigrationLine[] {
  const indexes = compareTableIndexes(defineSnapshotTable(before), defineSnapshotTable(after), columns)
  const renamedIndexes = indexes.kept.filter((index) => index.before.name !== index.after.name)
  const table = after.name
  // A live-row unique index is named after its table and column too, and SQLite cannot rename an index.
  const renamedUniques = columns.kept.flatMap(({ before: previous, after: column }) => {
    const [from, to] = [nameConstraint(before.name, previous.name, 'key'), nameConstraint(table, column.name, 'key')]
    return uniqueFormOf(before, previous) === 'live-index' &&
      uniqueFormOf(after, column) === 'live-index' &&
      from !== to
      ? [{ from, to, column: column.name }]
      : []
  })
  return [
    ...(before.name === table ? [] : [db.schema.alterTable(before.name).renameTo(table)]),
    ...[...indexes.dropped, ...renamedIndexes.map((index) => index.before)].map((index) =>
      db.schema.dropIndex(index.name),
    ),
    ...renamedUniques.map(({ from }) => db.schema.dropIndex(from)),
    ...columns.kept
      .filter((column) => column.before.name !== column.after.name)
      .map((column) => db.schema.alterTable(table).renameColumn(column.before.name, column.after.name)),
    ...columns.added.flatMap((added) => addColumn(table, added)),
    ...[...indexes.created, ...renamedIndexes.map((index) => index.after)].map((index) =>
      buildCreateIndex(db, table, index, sqliteSyntax, MIGRATION_CREATE_OPTIONS),
    ),
    ...renamedUniques.map(({ to, column }) => buildLiveUniqueIndex(db, table, to, [column], false)),
  ].map((statement) => ({ statement }))
}

function addColumn(table: string, { column, backfill }: AddedColumn) {
  const references = column.references
  const add = db.schema.alterTable(table).addColumn(column.name, sqlTypeOf(sqliteColumnTypes, column), (builder) => {
    const withDefault =
      column.default === null ? builder : builder.defaultTo(columnLiteral(sqliteColumnTypes, column, column.default))
    const constrained = column.nullable ? withDefault : withDefault.notNull()
    if (references === undefined) return constrained
    return constrained.modifyEnd(
      sql`constraint ${sql.id(nameConstraint(table, column.name, 'fkey'))} references ${sql.table(references.table)} (${sql.id('id')}) on delete ${sql.raw(onDeleteSql(references.onDelete))}`,
    )
  })
  if (backfill === undefined || backfill === column.default) return [add]
  return [add, db.updateTable(table).set(column.name, columnLiteral(sqliteColumnTypes, column, backfill))]
}

/**
 * `new_<table>`, as SQLite's procedure names it, or `new_<table>_2`, `_3`…
 * when a table before or after the migration has that name: validation
 * refuses the word "new" in resource names, but a hand-edited migration may
 * have created such a table all the same.
 */
function nameRebuildTable(table: string, tableNames: ReadonlySet<string>): string {
  let name = `new_${table}`
  for (let suffix = 2; tableNames.has(name); suffix++) name = `new_${table}_${suffix}`
  return name
}

function rebuildTable(
  before: SnapshotTable,
  after: SnapshotTable,
  columns: ColumnChanges,
  tableNames: ReadonlySet<string>,
): MigrationLine[] {
  const definition = defineSnapshotTable(after)
  const temporary = nameRebuildTable(after.name, tableNames)
  const values = new Map<string, Expression<unknown>>()
  for (const { before: previous, after: column, backfill } of columns.kept) {
    const converted = convertColumnValue(sqliteValueConversions, previous, column, sql.ref(previous.name))
    values.set(
      column.name,
      backfill === undefined
        ? converted
        : sql`coalesce(${converted}, ${columnLiteral(sqliteColumnTypes, column, backfill)})`,
    )
  }
  for (const { column, backfill } of columns.added) {
    values.set(column.name, columnLiteral(sqliteColumnTypes, column, backfill ?? column.default))
  }
  const names = after.columns.map((column) => column.name)
  const selected = sql.join(
    names.map((name) => values.get(name)!),
    sql`,\n  `,
  )
  const copy = sql`insert into ${sql.table(temporary)} (${sql.join(names.map((name) => sql.ref(name)))})\nselect\n  ${selected}\nfrom ${sql.table(before.name)}`
  return [
    { comment: `"${after.name}" is rebuilt: SQLite cannot alter its columns in place (${REBUILD_PROCEDURE})` },
    { statement: buildCreateTable(db, definition, temporary, sqliteColumnTypes, MIGRATION_CREATE_OPTIONS) },
    // AUTOINCREMENT's counter carries over, so ids of rows deleted before are still never reused.
    {
      statement: sql`insert into sqlite_sequence (name, seq) select ${sql.lit(temporary)}, seq from sqlite_sequence where name = ${sql.lit(before.name)}`,
    },
    { statement: copy },
    { statement: db.schema.dropTable(before.name) },
    { statement: db.schema.alterTable(temporary).renameTo(after.name) },
    ...listLiveUniqueIndexes(db, definition, after.name, MIGRATION_CREATE_OPTIONS).map((statement) => ({ statement })),
    ...listTableIndexes(definition).map((index) => ({
      statement: buildCreateIndex(db, after.name, index, sqliteSyntax, MIGRATION_CREATE_OPTIONS),
    })),
  ]
}
