import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createStorage, type Storage } from '../../runtime/index.js'
import { allTables } from '../fixtures/shop-api/generated/schema.js'
import { POSTGRES_URL, type Dialect } from './test-postgres.js'

export { DIALECTS, POSTGRES_URL, type Dialect } from './test-postgres.js'

export interface TestStorage {
  readonly storage: Storage
  /** SQL statements executed so far. */
  statements(): number
  dispose(): Promise<void>
}

/** A fresh database for the shop API (test/fixtures/shop-api): in-memory SQLite, or a throwaway PostgreSQL schema. */
export async function openTestStorage(dialect: Dialect, tables = allTables): Promise<TestStorage> {
  let statements = 0
  const onStatement = (): void => void statements++
  if (dialect === 'sqlite') {
    const storage = createStorage('sqlite::memory:', tables, { onStatement })
    return { storage, statements: () => statements, dispose: () => storage.close() }
  }
  const schema = `restmint_test_${randomBytes(6).toString('hex')}`
  const storage = createStorage(POSTGRES_URL, tables, { schema, onStatement })
  return {
    storage,
    statements: () => statements,
    async dispose() {
      await storage.close()
      const client = new pg.Client(POSTGRES_URL)
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await client.end()
    },
  }
}
