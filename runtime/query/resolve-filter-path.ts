import type { ColumnDefinition, RelationDefinition, TableDefinition } from '../contract/table-definition.js'
import type { FilterHop } from '../storage/storage.js'

/** A filterable field reached across relations: the column at the end, and the tables passed to reach it. */
export interface FilterPath {
  readonly column: ColumnDefinition
  /** Empty for a field of the listed table itself. */
  readonly through: readonly FilterHop[]
}

/**
 * Follows `field` (`price`, `tags.name`, `author.company.name`) from `table`
 * through its relations to the column it names. The manifest's FILTER_PATH
 * check has made sure the path exists; anything else is an internal error.
 */
export function resolveFilterPath(
  table: TableDefinition,
  tables: ReadonlyMap<string, TableDefinition>,
  field: string,
): FilterPath {
  const segments = field.split('.')
  const through: FilterHop[] = []
  let current = table
  for (const segment of segments.slice(0, -1)) {
    const relation = current.relations?.find((candidate) => candidate.name === segment)
    const target = relation && tables.get(relation.table)
    if (!relation || !target) throw new Error(`internal error: ${current.name} has no relation ${segment}`)
    through.push(...hopsOf(relation, tables))
    current = target
  }
  const name = segments.at(-1)!
  const column = current.columns.find((candidate) => candidate.name === name)
  if (!column) throw new Error(`internal error: rules name ${field}, which ${table.name} does not reach`)
  return { column, through }
}

/** The tables one relation passes, each tied to the one before; a soft-deleted row leads nowhere. */
function hopsOf(relation: RelationDefinition, tables: ReadonlyMap<string, TableDefinition>): FilterHop[] {
  const hop = (table: string, column: string, outerColumn: string): FilterHop => ({
    table,
    column,
    outerColumn,
    ...(tables.get(table)?.softDelete === true ? { live: true as const } : {}),
  })
  if (relation.kind === 'belongs-to') return [hop(relation.table, 'id', relation.column)]
  if (relation.through === undefined) return [hop(relation.table, relation.column, 'id')]
  return [hop(relation.through.table, relation.column, 'id'), hop(relation.table, 'id', relation.through.targetColumn)]
}
