import { isRetyped } from '../type-conversion.js'
import { onDeleteSql } from '../../../runtime/contract/table-definition.js'
import { PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely'
import type { TableChange } from '../migration-plan.js'
import type { SnapshotColumn, SnapshotTable } from '../../../runtime/migrations/storage-snapshot.js'
import { buildCreateIndex } from '../../../runtime/storage/build-create-statements.js'
import { buildLiveUniqueIndex } from '../../../runtime/storage/build-live-unique-index.js'
import { nameConstraint } from '../../../runtime/storage/constraint-names.js'
import { postgresColumnTypes } from '../../../runtime/storage/postgres/postgres-column-types.js'
import { sqlTypeOf } from '../../../runtime/storage/column-type-mapping.js'
import { postgresSyntax } from '../../../runtime/storage/postgres/postgres-syntax.js'
import { compareTableColumns, isSameReference, uniqueFormOf, type RenamedTables } from '../compare-table-columns.js'
import { columnLiteral } from '../column-literal.js'
import { compareTableIndexes } from '../compare-table-indexes.js'
import { convertColumnValue } from '../convert-column-value.js'
import { createCompileOnlyKysely } from '../create-compile-only-kysely.js'
import { defineSnapshotTable } from '../define-snapshot-table.js'
import {
  MIGRATION_CREATE_OPTIONS,
  type MigrationLine,
  type MigrationSqlDialect,
  type MigrationStatement,
} from '../migration-sql-dialect.js'
import { postgresValueConversions } from './postgres-value-conversions.js'

const db = createCompileOnlyKysely({
  adapter: () => new PostgresAdapter(),
  compiler: () => new PostgresQueryCompiler(),
  introspector: (kysely) => new PostgresIntrospector(kysely),
})
const MAX_IDENTIFIER_LENGTH = 63

/**
 * PostgreSQL alters a table in place: ALTER TABLE renames it and its
 * columns, adds, drops and retypes columns (USING the conversion the API's
 * values need), sets nullability and defaults, and adds or drops the named
 * unique and foreign-key constraints; indexes are created, dropped or
 * renamed. Constraints and indexes are renamed along with their table or
 * column, since the runtime finds a column through the constraint name a
 * driver error carries (constraint-names.ts).
 */
export const postgresMigrationSql: MigrationSqlDialect = {
  db,
  columnTypes: postgresColumnTypes,
  syntax: postgresSyntax,
  alterTable,
}

function alterTable(
  before: SnapshotTable,
  after: SnapshotTable,
  sources: TableChange['sources'],
  renamedTables: RenamedTables,
): MigrationLine[] {
  const columns = compareTableColumns(before, after, sources)
  const indexes = compareTableIndexes(defineSnapshotTable(before), defineSnapshotTable(after), columns)
  const table = after.name
  const statements: MigrationStatement[] = []
  const alter = () => db.schema.alterTable(table)
  const constraintOf = (owner: SnapshotTable, column: SnapshotColumn, kind: 'key' | 'fkey') =>
    nameConstraint(owner.name, column.name, kind)

  if (before.name !== after.name) {
    statements.push(db.schema.alterTable(before.name).renameTo(table))
    // PostgreSQL named the primary key and the id sequence after the table; prepare() would use the new name.
    for (const suffix of ['pkey', 'id_seq']) {
      const [from, to] = [`${before.name}_${suffix}`, `${table}_${suffix}`]
      // Longer names PostgreSQL shortened its own way; they stay as they are.
      if (from.length > MAX_IDENTIFIER_LENGTH || to.length > MAX_IDENTIFIER_LENGTH) continue
      statements.push(
        suffix === 'pkey'
          ? sql`alter table ${sql.table(table)} rename constraint ${sql.id(from)} to ${sql.id(to)}`
          : sql`alter sequence ${sql.id(from)} rename to ${sql.id(to)}`,
      )
    }
  }
  for (const index of indexes.dropped) statements.push(db.schema.dropIndex(index.name))
  // A unique kept in the same form is renamed below; one whose form changes (soft_delete added or removed) is
  // dropped here and made again in its new form.
  const sameUniqueForm = (previous: SnapshotColumn, column: SnapshotColumn) =>
    uniqueFormOf(before, previous) === uniqueFormOf(after, column)
  for (const column of columns.kept) {
    const form = uniqueFormOf(before, column.before)
    if (form !== null && !sameUniqueForm(column.before, column.after)) {
      const name = constraintOf(before, column.before, 'key')
      statements.push(form === 'constraint' ? alter().dropConstraint(name) : db.schema.dropIndex(name))
    }
    if (column.before.references && !isSameReference(column.before, column.after, renamedTables)) {
      statements.push(alter().dropConstraint(constraintOf(before, column.before, 'fkey')))
    }
  }
  for (const { before: previous, after: column } of columns.kept) {
    if (previous.name !== column.name) statements.push(alter().renameColumn(previous.name, column.name))
  }
  for (const { before: previous, after: column } of columns.kept) {
    const renames: [string, string][] = []
    if (uniqueFormOf(before, previous) === 'live-index' && sameUniqueForm(previous, column)) {
      const [from, to] = [constraintOf(before, previous, 'key'), constraintOf(after, column, 'key')]
      if (from !== to) statements.push(sql`alter index ${sql.id(from)} rename to ${sql.id(to)}`)
    } else if (previous.unique && column.unique && sameUniqueForm(previous, column)) {
      renames.push([constraintOf(before, previous, 'key'), constraintOf(after, column, 'key')])
    }
    if (previous.references && isSameReference(previous, column, renamedTables)) {
      renames.push([constraintOf(before, previous, 'fkey'), constraintOf(after, column, 'fkey')])
    }
    for (const [from, to] of renames) {
      if (from !== to)
        statements.push(sql`alter table ${sql.table(table)} rename constraint ${sql.id(from)} to ${sql.id(to)}`)
    }
  }
  for (const index of indexes.kept) {
    if (index.before.name !== index.after.name) {
      statements.push(sql`alter index ${sql.id(index.before.name)} rename to ${sql.id(index.after.name)}`)
    }
  }
  for (const column of columns.dropped) statements.push(alter().dropColumn(column.name))

  for (const { before: previous, after: column, backfill } of columns.kept) {
    const name = column.name
    const retyped = isRetyped(previous, column)
    if (previous.nullable && !column.nullable && backfill !== undefined && !retyped) {
      statements.push(
        db
          .updateTable(table)
          .set(name, columnLiteral(postgresColumnTypes, column, backfill))
          .where(name, 'is', null),
      )
    }
    if (!previous.nullable && column.nullable) statements.push(alter().alterColumn(name, (c) => c.dropNotNull()))
    if (retyped) {
      // A default of the old type would block the new one: it is dropped first and set again below.
      if (previous.default !== null) statements.push(alter().alterColumn(name, (c) => c.dropDefault()))
      const converted = convertColumnValue(postgresValueConversions, previous, column, sql.ref(name))
      const using =
        backfill === undefined
          ? converted
          : sql`coalesce(${converted}, ${columnLiteral(postgresColumnTypes, column, backfill)})`
      statements.push(
        sql`alter table ${sql.table(table)} alter column ${sql.ref(name)} type ${sql.raw(sqlTypeOf(postgresColumnTypes, column))} using ${using}`,
      )
    }
    if (retyped ? column.default !== null : previous.default !== column.default) {
      statements.push(
        alter().alterColumn(name, (c) =>
          column.default === null
            ? c.dropDefault()
            : c.setDefault(columnLiteral(postgresColumnTypes, column, column.default)),
        ),
      )
    }
    if (previous.nullable && !column.nullable) statements.push(alter().alterColumn(name, (c) => c.setNotNull()))
  }

  for (const { column, backfill } of columns.added) {
    // A NOT NULL column without a default takes its backfill as a default only while it is added.
    const initial = column.default ?? (column.nullable ? null : (backfill ?? null))
    statements.push(
      alter().addColumn(column.name, sqlTypeOf(postgresColumnTypes, column), (builder) => {
        const withDefault =
          initial === null ? builder : builder.defaultTo(columnLiteral(postgresColumnTypes, column, initial))
        return column.nullable ? withDefault : withDefault.notNull()
      }),
    )
    if (initial !== column.default) statements.push(alter().alterColumn(column.name, (c) => c.dropDefault()))
    else if (backfill !== undefined && backfill !== initial) {
      statements.push(db.updateTable(table).set(column.name, columnLiteral(postgresColumnTypes, column, backfill)))
    }
  }

  const constrained = [
    ...columns.kept.map(({ before: previous, after: column }) => ({ previous, column })),
    ...columns.added.map(({ column }) => ({ previous: undefined, column })),
  ]
  for (const { previous, column } of constrained) {
    const form = uniqueFormOf(after, column)
    if (form !== null && form !== uniqueFormOf(before, previous)) {
      const name = constraintOf(after, column, 'key')
      statements.push(
        form === 'constraint'
          ? alter().addUniqueConstraint(name, [column.name])
          : buildLiveUniqueIndex(db, table, name, [column.name], false),
      )
    }
    const references = column.references
    if (references && !(previous?.references && isSameReference(previous, column, renamedTables))) {
      statements.push(
        alter().addForeignKeyConstraint(
          constraintOf(after, column, 'fkey'),
          [column.name],
          references.table,
          ['id'],
          (constraint) => constraint.onDelete(onDeleteSql(references.onDelete)),
        ),
      )
    }
  }
  for (const index of indexes.created) {
    statements.push(buildCreateIndex(db, table, index, postgresSyntax, MIGRATION_CREATE_OPTIONS))
  }
  return statements.map((statement) => ({ statement }))
}
