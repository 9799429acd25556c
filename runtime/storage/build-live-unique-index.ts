import { sql, type CreateIndexBuilder, type Kysely } from 'kysely'
import { SOFT_DELETE_FIELD } from '../contract/field-type.js'

/**
 * CREATE UNIQUE INDEX `name` on `columns` of a soft-deleting table, holding
 * among its live rows only (`WHERE deleted_at IS NULL`, a partial index both
 * PostgreSQL and SQLite support): a soft-deleted row keeps its values but
 * does not block a new row from taking them. Every unique of such a table,
 * one column or several, is built here, so they all share the predicate.
 */
export function buildLiveUniqueIndex(
  db: Kysely<any>,
  tableName: string,
  name: string,
  columns: readonly string[],
  ifNotExists: boolean,
): CreateIndexBuilder {
  let createIndex = db.schema.createIndex(name)
  if (ifNotExists) createIndex = createIndex.ifNotExists()
  return createIndex
    .unique()
    .on(tableName)
    .columns([...columns])
    .where(sql.ref(SOFT_DELETE_FIELD), 'is', null)
}
