import Database from 'better-sqlite3'
import pg from 'pg'
import { POSTGRES_URL, type Dialect } from './test-postgres.js'

/**
 * Applies a migration's SQL file to a test database the way `migrate apply`
 * does, in one transaction: SQLite with foreign_keys OFF around it and
 * `foreign_key_check` before COMMIT (refusing with the offending rows);
 * PostgreSQL with the schema first on the search path. Rolls back and
 * rethrows on any failure. `location` is the SQLite file or the PostgreSQL schema.
 */
export async function applyMigrationSql(dialect: Dialect, location: string, text: string): Promise<void> {
  if (dialect === 'sqlite') {
    const connection = new Database(location)
    try {
      connection.pragma('foreign_keys = OFF')
      connection.exec('begin immediate')
      try {
        connection.exec(text)
        const violations = connection.pragma('foreign_key_check') as unknown[]
        if (violations.length > 0) throw new Error(`foreign key violations: ${JSON.stringify(violations)}`)
        connection.exec('commit')
      } catch (error) {
        connection.exec('rollback')
        throw error
      }
    } finally {
      connection.close()
    }
    return
  }
  const client = new pg.Client(POSTGRES_URL)
  await client.connect()
  try {
    await client.query('begin')
    try {
      await client.query(`set local search_path to "${location}"`)
      await client.query(text)
      await client.query('commit')
    } catch (error) {
      await client.query('rollback')
      throw error
    }
  } finally {
    await client.end()
  }
}
