import type { TableDefinition } from '../contract/table-definition.js'

/**
 * Returns `tables` ordered so that every table comes after the tables its
 * foreign keys reference (a table may reference itself). Throws when a foreign
 * key names a table that is not in `tables`, or when references form a cycle,
 * which no order of CREATE TABLE statements can satisfy.
 */
export function sortTablesByDependency(tables: readonly TableDefinition[]): TableDefinition[] {
  const byName = new Map(tables.map((table) => [table.name, table]))
  const sorted: TableDefinition[] = []
  const done = new Set<string>()
  const path: string[] = []

  const visit = (table: TableDefinition): void => {
    if (done.has(table.name)) return
    if (path.includes(table.name)) {
      const cycle = [...path.slice(path.indexOf(table.name)), table.name].join(' → ')
      throw new Error(`foreign keys form a cycle (${cycle}); tables cannot be created in any order`)
    }
    path.push(table.name)
    for (const column of table.columns) {
      const target = column.references?.table
      if (target === undefined || target === table.name) continue
      const referenced = byName.get(target)
      if (referenced === undefined) {
        throw new Error(`table "${table.name}": column "${column.name}" references unknown table "${target}"`)
      }
      visit(referenced)
    }
    path.pop()
    done.add(table.name)
    sorted.push(table)
  }

  for (const table of tables) visit(table)
  return sorted
}
