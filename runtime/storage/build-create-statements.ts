import { sql, type Compilable, type CreateTableBuilder, type Kysely } from 'kysely'
import type { ColumnDefinition, TableDefinition } from '../table-definition.js'
import { nameConstraint, nameIndex } from './constraint-names.js'
import type { ColumnTypeMapping } from './column-type-mapping.js'
import type { DialectSyntax } from './storage-dialect.js'

/**
 * Builds, in the given order (referenced tables first), CREATE TABLE IF NOT
 * EXISTS for each table, then CREATE INDEX IF NOT EXISTS for each foreign key
 * column and each of the table's `indexes`. Existing tables and indexes are
 * left as they are: nothing here alters or drops. Run on every start, so an
 * index added to the definition is created on an existing table too.
 */
export function buildCreateStatements(
  db: Kysely<any>,
  tables: readonly TableDefinition[],
  types: ColumnTypeMapping,
  syntax: DialectSyntax,
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
    const declaredIndexes = listIndexes(table).map((columns) =>
      db.schema
        .createIndex(
          nameIndex(
            table.name,
            columns.map((column) => column.name),
          ),
        )
        .ifNotExists()
        .on(table.name)
        .expression(sql.join(columns.map((column) => syntax.indexColumn(column)))),
    )
    return [createTable, ...createIndexes, ...declaredIndexes]
  })
}

/**
 * The table's declared indexes, each column once, without duplicates and
 * without the bare primary key. Throws for a column the table lacks.
 */
function listIndexes(table: TableDefinition): ColumnDefinition[][] {
  const columns = new Map(table.columns.map((column) => [column.name, column]))
  const seen = new Set<string>()
  const indexes: ColumnDefinition[][] = []
  for (const index of table.indexes ?? []) {
    const names = [...new Set(index.columns)]
    const key = names.join(',')
    if (names.length === 0 || key === 'id' || seen.has(key)) continue
    seen.add(key)
    indexes.push(
      names.map((name) => {
        const column = columns.get(name)
        if (column === undefined) throw new Error(`index on "${table.name}" names unknown column "${name}"`)
        return column
      }),
    )
  }
  return indexes
}
