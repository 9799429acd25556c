import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { POSTGRES_URL, type Dialect } from '../support/test-postgres.js'

/** A throwaway database for migration tests: an SQLite file, or a PostgreSQL schema of its own. */
export interface MigrationDatabase {
  readonly dialect: Dialect
  readonly url: string
  readonly schema: string
  /** A directory of its own, for its migrations. */
  readonly directory: string
  /** `--db … --schema …` */
  readonly args: readonly string[]
  /** Runs one statement, unqualified names resolving to the database's namespace, and returns its rows. */
  query<T = Record<string, unknown>>(sql: string): Promise<T[]>
  /** Base table names, sorted. */
  tableNames(): Promise<string[]>
  dispose(): Promise<void>
}

export function createMigrationDatabase(dialect: Dialect): MigrationDatabase {
  const directory = mkdtempSync(join(tmpdir(), 'restmint-migrations-'))
  const schema = `restmint_test_${randomBytes(6).toString('hex')}`
  const file = join(directory, 'shop.db')
  const url = dialect === 'sqlite' ? `sqlite:${file}` : POSTGRES_URL

  async function query<T>(sql: string): Promise<T[]> {
    if (dialect === 'sqlite') {
      const database = new Database(file)
      try {
        const statement = database.prepare(sql)
        return (statement.reader ? statement.all() : (statement.run(), [])) as T[]
      } finally {
        database.close()
      }
    }
    const client = new pg.Client(POSTGRES_URL)
    await client.connect()
    try {
      await client.query(`set search_path to "${schema}"`)
      return (await client.query(sql)).rows as T[]
    } finally {
      await client.end()
    }
  }

  return {
    dialect,
    url,
    schema,
    directory,
    args: ['--db', url, '--schema', schema],
    query,
    async tableNames() {
      const rows = await query<{ name: string }>(
        dialect === 'sqlite'
          ? `select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`
          : `select table_name as name from information_schema.tables where table_schema = '${schema}' order by name`,
      )
      return rows.map((row) => row.name)
    },
    async dispose() {
      rmSync(directory, { recursive: true, force: true })
      if (dialect === 'postgres') {
        const client = new pg.Client(POSTGRES_URL)
        await client.connect()
        await client.query(`drop schema if exists "${schema}" cascade`)
        await client.end()
      }
    },
  }
}
