import { createHash } from 'node:crypto'
import type { Pool } from 'pg'
import { Kysely, PostgresDialect, sql } from 'kysely'
import { runRawQuery } from '../run-raw-query.js'
import type { StorageDialect } from '../storage-dialect.js'
import { postgresColumnTypes, postgresTypeParsers } from './postgres-column-types.js'
import { loadPg, PostgresDriver } from './postgres-driver.js'
import { classifyPostgresError } from './postgres-errors.js'
import { readPostgresTables } from './postgres-introspection.js'
import { postgresSyntax, ROOT_COLLATION } from './postgres-syntax.js'
import { StorageUrlError } from '../storage-errors.js'

/** The connection pool of a PostgreSQL storage. */
export interface PostgresPoolOptions {
  /** Connections at most. Default 10 (pg's own default). */
  readonly size?: number
  /**
   * How long a statement waits for a connection, in milliseconds, when every
   * one is busy or a new one is slow to open; then it fails with
   * StorageBusyError (HTTP 503). Default 5,000; 0 waits for ever.
   */
  readonly timeoutMs?: number
}

export const DEFAULT_POOL_SIZE = 10
export const DEFAULT_POOL_TIMEOUT_MS = 5_000

/**
 * Connects a pool to the PostgreSQL database at `url`; every table lives in
 * `schema` (created by prepare when missing). Every statement runs through
 * PostgresDriver, which reports each one to `onStatement` (transaction
 * control included); Kysely only builds SQL.
 */
export function createPostgresDialect(
  url: string,
  schema = 'public',
  onStatement?: (sql: string) => void,
  poolOptions: PostgresPoolOptions = {},
): StorageDialect {
  let pool: Promise<Pool> | undefined
  const openPool = (): Promise<Pool> =>
    (pool ??= loadPg().then((pg) => {
      const opened = new pg.Pool({
        connectionString: url,
        types: postgresTypeParsers(pg.types),
        max: poolOptions.size ?? DEFAULT_POOL_SIZE,
        connectionTimeoutMillis: poolOptions.timeoutMs ?? DEFAULT_POOL_TIMEOUT_MS,
        // A transaction's BEGIN goes out with its first statement rather than a round trip before it (PostgresDriver).
        pipeline: true,
      })
      // An idle connection that dies is dropped by the pool; without a listener the process would crash.
      opened.on('error', () => {})
      // pg-pool listens to a connection's 'error' only while it is idle. One whose backend dies while it is lent
      // out (a transaction holding it while its work awaits something else, or just handed over by a statement
      // that ended) would emit 'error' with no listener: an uncaught exception, ending the process. Its queries
      // fail all the same, and the pool drops a connection that is no longer queryable when it comes back.
      opened.on('connect', (client) => client.on('error', () => {}))
      return opened
    }))
  const base = new Kysely<any>({ dialect: new PostgresDialect({ pool: openPool }) })
  const lockKey = namespaceLockKey(schema)

  return {
    name: 'postgres',
    db: base.withSchema(schema),
    driver: new PostgresDriver(openPool, onStatement),
    columnTypes: postgresColumnTypes,
    syntax: postgresSyntax,
    checkSupport: async (executor) => {
      const [collation] = await runRawQuery(
        executor,
        base,
        sql<{ found: boolean }>`select to_regcollation(${`pg_catalog."${ROOT_COLLATION}"`}) is not null as "found"`,
      )
      if (collation?.found) return
      throw new StorageUrlError(
        `The PostgreSQL database has no ICU collation "${ROOT_COLLATION}", which restmint needs to match ` +
          `contains and starts_with filters case-insensitively alike on every database: use a PostgreSQL ` +
          `built with ICU (the default since PostgreSQL 16, and in the PGDG packages and official Docker images).`,
      )
    },
    lockNamespace: async (executor) => {
      // Released at commit or rollback; a crashed instance cannot leave it held.
      await runRawQuery(executor, base, sql`select pg_advisory_xact_lock(${lockKey}::bigint)`)
    },
    createNamespace: async (executor) => {
      const { sql: text, parameters } = base.schema.createSchema(schema).ifNotExists().compile()
      await executor.execute(text, [...parameters])
    },
    runScript: async (executor, script) => {
      await runRawQuery(executor, base, sql`set local search_path to ${sql.id(schema)}`)
      await executor.executeScript(script)
    },
    readExistingTables: (executor) => readPostgresTables(executor, base, schema),
    estimateRows: async (executor, text, parameters) => {
      // Planned with the request's values (a custom plan), so the estimate fits them; never executed.
      const [row] = await executor.execute(`explain (format json) ${text}`, parameters)
      const plan = row?.['QUERY PLAN'] as readonly { readonly Plan: { readonly 'Plan Rows': number } }[]
      return Math.round(plan[0]!.Plan['Plan Rows'])
    },
    classifyError: classifyPostgresError,
    close: async () => {
      // Kysely ends the pool only if it ever used it.
      await base.destroy()
      const opened = await pool
      if (opened && !opened.ended) await opened.end()
    },
  }
}

/**
 * The advisory lock key of prepare() on `schema`: 64 bits of a hash, so the
 * same for every instance and version of restmint, and unlikely to be a key
 * another application locks.
 */
function namespaceLockKey(schema: string): string {
  return createHash('sha256').update(`restmint prepare ${schema}`).digest().readBigInt64BE(0).toString()
}
