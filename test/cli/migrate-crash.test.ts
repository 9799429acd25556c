/**
 * Crash safety of `restmint migrate apply` (issue 8): killed with SIGKILL
 * while a migration's SQL runs, the database is exactly as before that
 * migration (no table of it, no record), and the next run applies it. The
 * migration's SQL blocks on something the test controls (an SQLite table
 * holding a row, a PostgreSQL advisory lock the test holds), so the kill
 * always lands while it runs, whatever the machine's speed.
 */
import { randomInt } from 'node:crypto'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { createMigrationDatabase, type MigrationDatabase } from '../migrate/migration-database.js'
import { bothDialects, writeMigration } from '../migrate/migration-fixtures.js'
import { runCli } from '../support/run-cli.js'
import { spawnCli } from '../support/spawn-cli.js'
import { DIALECTS, POSTGRES_URL } from '../support/test-postgres.js'

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((done) => setTimeout(done, 50))
}

describe.each(DIALECTS)('%s: restmint migrate apply killed with SIGKILL', (dialect) => {
  let database: MigrationDatabase
  afterEach(() => database.dispose())

  it('leaves the database before the migration it was applying, and a rerun applies it', async () => {
    database = createMigrationDatabase(dialect)
    const migrations = join(database.directory, 'migrations')
    const args = ['migrate', 'apply', ...database.args, '--migrations', migrations]
    const lockKey = randomInt(1, 2 ** 31 - 1)
    // SQLite: a recursive CTE that counts for as long as `hold` holds a row. PostgreSQL: wait for the test's lock.
    const block =
      dialect === 'sqlite'
        ? 'with recursive spin(n) as (select 1 union all select n + 1 from spin where exists (select 1 from hold)) ' +
          'select count(*) from spin'
        : `select pg_advisory_xact_lock(${lockKey})`
    writeMigration(
      migrations,
      '0001_hold',
      bothDialects('create table hold (id integer primary key);\ninsert into hold (id) values (1);\n'),
    )
    expect((await runCli(database.directory, ...args)).exitCode).toBe(0)
    writeMigration(
      migrations,
      '0002_tags',
      bothDialects(
        `create table tags (id integer primary key);\n${block};\ncreate table labels (id integer primary key);\n`,
      ),
    )

    const locker = dialect === 'postgres' ? new pg.Client(POSTGRES_URL) : undefined
    await locker?.connect()
    try {
      await locker?.query('select pg_advisory_lock($1)', [lockKey])
      const apply = spawnCli(database.directory, args)
      await apply.waitForStdout(/applying 0002_tags/)
      if (locker !== undefined) {
        await waitUntil(async () => {
          const waiting = await locker.query(
            `select 1 from pg_locks where locktype = 'advisory' and objid = $1 and not granted`,
            [lockKey],
          )
          return waiting.rowCount === 1
        })
      }
      expect(await apply.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' })

      expect(await database.tableNames()).toEqual(['hold', 'restmint_migrations'])
      expect(await database.query('select id from restmint_migrations')).toEqual([{ id: '0001' }])
      if (dialect === 'sqlite') await database.query('delete from hold')
      // PostgreSQL: the killed run's session waits on, and rolls back once it gets the lock and finds its client gone.
      await locker?.query('select pg_advisory_unlock($1)', [lockKey])

      const rerun = await runCli(database.directory, ...args)
      expect(rerun.stderr).toBe('')
      expect(rerun.stdout).toContain('applied 0002_tags')
      expect(await database.tableNames()).toEqual(['hold', 'labels', 'restmint_migrations', 'tags'])
      expect(await database.query('select id from restmint_migrations order by id')).toEqual([
        { id: '0001' },
        { id: '0002' },
      ])
    } finally {
      await locker?.end()
    }
  })
})
