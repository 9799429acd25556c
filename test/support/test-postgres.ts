/**
 * Which PostgreSQL the tests use: `RESTMINT_TEST_POSTGRES` holds its URL, or
 * `off` to run the SQLite half of the suite only. Never skipped silently: the
 * global setup (`postgres-global-setup.ts`) stops the run when the server
 * cannot be reached, and says so when it is switched off.
 */
const SETTING = process.env.RESTMINT_TEST_POSTGRES

export type Dialect = 'sqlite' | 'postgres'

export const POSTGRES_OFF = SETTING === 'off'

export const DIALECTS: readonly Dialect[] = POSTGRES_OFF ? ['sqlite'] : ['sqlite', 'postgres']

export const POSTGRES_URL = SETTING === undefined || POSTGRES_OFF ? 'postgres://postgres@127.0.0.1:5432/test' : SETTING
