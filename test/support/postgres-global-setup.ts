import pg from 'pg'
import { redactCredentials } from '../../runtime/storage/redact-credentials.js'
import { POSTGRES_OFF, POSTGRES_URL } from './test-postgres.js'

/**
 * Vitest global setup: half the suite runs on PostgreSQL, so a missing server
 * stops the run before any test, with one message saying what to start or set
 * (rather than a connection error and a TypeError from every suite's afterAll).
 */
export default async function probeTestPostgres(): Promise<void> {
  if (POSTGRES_OFF) {
    console.warn('RESTMINT_TEST_POSTGRES=off: the PostgreSQL tests are skipped, only SQLite runs.')
    return
  }
  await probePostgres(POSTGRES_URL)
}

/** Resolves when PostgreSQL answers at `url`; otherwise throws the message for a person running the tests. */
export async function probePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 })
  try {
    await client.connect()
    await client.query('select 1')
  } catch (error) {
    const reason = error instanceof Error ? error.message || error.name : String(error)
    throw new Error(
      [
        `PostgreSQL is not reachable at ${redactCredentials(url)} (${reason}).`,
        'Every HTTP and storage test runs on SQLite and on PostgreSQL. Either start PostgreSQL there',
        '(user postgres, trust auth, database test), or set RESTMINT_TEST_POSTGRES to the URL of one',
        '(postgres://user@host:port/database), or set RESTMINT_TEST_POSTGRES=off to run the SQLite tests only.',
      ].join('\n'),
    )
  } finally {
    await client.end().catch(() => undefined)
  }
}
