import type { Compilable, CreateTableBuilder, Kysely } from 'kysely'
import type { TableDefinition } from '../table-definition.js'
import { nameConstraint } from './constraint-names.js'
import type { ColumnTypeMapping } from './storage-dialect.js'

/**
 * Builds, in the given order (referenced tables first), CREATE TABLE IF NOT
 * EXISTS for each table and CREATE INDEX IF NOT EXISTS for each foreign key
 * column. Existing tables and indexes are left as they are: nothing here
 * alters or drops.
 */
export function buildCreateStatements(
  db: Kysely<any>,
  tables: readonly TableDefinition[],
  types: ColumnTypeMapping,
): Compilable[] {
  return tables.flatMap((table) => {
    let createTable: CreateTableBuilder<string, string> = db.schema.createTable(table.name).ifNotExists()
    for (const column of table.columns) {
      createTable = createTable.addColumn(column.name, types.sqlTypes[column.type], (builder) => {
        if (column.name === 'id') return types.defineIdColumn(builder)
        return column.nullable ? builder : builder.notNull()
      })
    }
    // Named constraints let a driver error that names only the constraint be traced to its column.
    for (const column of table.columns) {
      if (column.unique) {
        createTable = createTable.addUniqueConstraint(nameConstraint(table.name, column.name, 'key'), [column.name])
      }
      const references = column.references
      if (references) {
        createTable = createTable.addForeignKeyConstraint(
          nameConstraint(table.name, column.name, 'fkey'),
          [column.name],
          references.table,
          ['id'],
          (constraint) => constraint.onDelete(references.onDelete),
        )
      }
    }
    const createIndexes = table.columns
      .filter((column) => column.references !== undefined)
      .map((column) =>
        db.schema
          .createIndex(nameConstraint(table.name, column.name, 'idx'))
          .ifNotExists()
          .on(table.name)
          .column(column.name),
      )
    return [createTable, ...createIndexes]
  })
}
