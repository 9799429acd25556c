import type { Storage } from '../storage/storage.js'
import { MissingReferenceError } from '../storage/storage-errors.js'
import type { Row, TableDefinition } from '../contract/table-definition.js'
import type { AccessGrant } from './authorize-request.js'

/**
 * A write may only point at rows the caller can read: a foreign key naming
 * a row of a table whose read rule hides it from the caller is refused as
 * if the row did not exist (MissingReferenceError, the same 400), so writes
 * neither reveal that a hidden row exists nor attach records to it.
 * A soft-deleted row counts as missing. Tables the caller reads whole and
 * that soft-delete nothing cost no query.
 */
export async function ensureReadableReferences(
  storage: Storage,
  tablesByName: ReadonlyMap<string, TableDefinition>,
  table: TableDefinition,
  values: Row,
  grant: AccessGrant,
): Promise<void> {
  for (const column of table.columns) {
    const id = values[column.name]
    if (column.references === undefined || typeof id !== 'number') continue
    const readable = grant.readableRowsOf(column.references.table)
    const target = tablesByName.get(column.references.table)
    // A soft-deleted row reads as gone, so nothing new may point at it (the database would let it).
    const whole = readable !== null && Object.keys(readable).length === 0 && target?.softDelete !== true
    if (whole || target === undefined) continue
    if (readable === null || (await storage.find(target, id, readable)) === undefined) {
      throw new MissingReferenceError(table.name, column.name, column.references.table)
    }
  }
}
