import type { ReferenceDefinition, TableDefinition } from '../contract/table-definition.js'

/** A `restrict` reference somewhere in the cascade tree of a row about to be deleted. */
export interface RestrictCheck {
  /** Cascade references followed from the deleted row's table; empty for the table itself. */
  readonly cascadePath: readonly ReferenceDefinition[]
  /** The table whose rows the restrict reference points at (where the path ends). */
  readonly referencedTable: string
  readonly restrict: ReferenceDefinition
}

/**
 * Lists every `restrict` reference that deleting a row of `table` must check:
 * those on the table itself and those on every table its cascade references
 * reach (`set_null` references delete nothing, so they lead nowhere), since a cascaded row that is still referenced blocks the whole delete.
 * A table already on the path is not entered again, so cascade cycles end;
 * beyond that lap the database's own RESTRICT constraint still refuses.
 */
export function collectRestrictChecks(
  table: TableDefinition,
  tablesByName: ReadonlyMap<string, TableDefinition>,
): RestrictCheck[] {
  const checks: RestrictCheck[] = []
  const walk = (current: TableDefinition, cascadePath: readonly ReferenceDefinition[], onPath: ReadonlySet<string>) => {
    for (const reference of current.referencedBy) {
      if (reference.onDelete === 'restrict') {
        checks.push({ cascadePath, referencedTable: current.name, restrict: reference })
        continue
      }
      // `set_null` rows stay (their key cleared), so nothing that points at them is deleted.
      if (reference.onDelete !== 'cascade' || onPath.has(reference.table)) continue
      const referencing = tablesByName.get(reference.table)
      if (referencing === undefined) {
        throw new Error(`table "${current.name}" is referenced by unknown table "${reference.table}"`)
      }
      walk(referencing, [...cascadePath, reference], new Set([...onPath, reference.table]))
    }
  }
  walk(table, [], new Set([table.name]))
  return checks
}
