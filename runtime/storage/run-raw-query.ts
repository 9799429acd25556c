import type { Kysely, RawBuilder } from 'kysely'
import type { SqlExecutor } from './storage-dialect.js'

/**
 * Compiles a raw `sql` query with `db` and runs it through `executor`, so it
 * can take part in the executor's transaction (Kysely would run it on a
 * connection of its own).
 */
export async function runRawQuery<R>(executor: SqlExecutor, db: Kysely<any>, query: RawBuilder<R>): Promise<R[]> {
  const { sql, parameters } = query.compile(db)
  return (await executor.execute(sql, [...parameters])) as R[]
}
