import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createPostgresDialect } from '../../runtime/storage/postgres/postgres-dialect.js'
import type { SqlExecutor, StorageDialect } from '../../runtime/storage/storage-dialect.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'

// A transaction's backend that dies while the transaction holds its connection but waits on nothing (the work
// awaits something else, or has sent nothing yet). pg then emits 'error' on the checked-out client, which pg-pool
// listens to only while the client is idle: without a listener of restmint's own, that 'error' is an uncaught
// exception, which ends a server's process. Each test here fails the run with "Uncaught Exception" when so.
const schema = `restmint_lost_backend_${process.pid}`
const table = `"${schema}"."notes"`
const INSERT = `insert into ${table} ("body") values ($1)`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(POSTGRES_OFF)('PostgreSQL transactions whose backend dies while they hold it', () => {
  const dialects: StorageDialect[] = []
  const open = () => {
    const dialect = createPostgresDialect(POSTGRES_URL, schema, undefined, { size: 1 })
    dialects.push(dialect)
    return dialect
  }
  let admin: StorageDialect
  const count = async (like: string) =>
    Number((await admin.driver.execute(`select count(*) as "n" from ${table} where "body" like $1`, [like]))[0]!.n)
  const pidOf = async (executor: SqlExecutor) =>
    Number((await executor.execute('select pg_backend_pid() as "pid"', []))[0]!.pid)
  const terminate = (pid: number) => admin.driver.execute('select pg_terminate_backend($1)', [pid])
  // What reaches the process uncaught while a test runs (vitest reports it too, but after the test passed).
  const uncaught: unknown[] = []
  const onUncaught = (error: unknown) => void uncaught.push(error)
  beforeEach(() => {
    uncaught.length = 0
    process.on('uncaughtException', onUncaught)
  })
  afterEach(() => {
    process.off('uncaughtException', onUncaught)
  })

  beforeAll(async () => {
    admin = open()
    await admin.driver.execute(`create schema "${schema}"`, [])
    await admin.driver.execute(`create table ${table} ("id" serial primary key, "body" text not null unique)`, [])
  })
  afterAll(async () => {
    await admin.driver.execute(`drop schema "${schema}" cascade`, [])
    for (const dialect of dialects) await dialect.close()
  })

  for (const kind of ['transaction', 'scriptTransaction'] as const) {
    it(`${kind}: dies between statements while the work awaits something else`, async () => {
      const dialect = open()
      await expect(
        dialect.driver[kind](async (tx) => {
          await tx.execute(INSERT, [`${kind}-between-1`])
          await terminate(await pidOf(tx))
          await sleep(100)
          await tx.execute(INSERT, [`${kind}-between-2`])
        }),
      ).rejects.toThrow()
      expect(await count(`${kind}-between-%`)).toBe(0)
      expect(uncaught).toEqual([])
      await dialect.driver.transaction((tx) => tx.execute(INSERT, [`${kind}-between-next`]))
      expect(await count(`${kind}-between-next`)).toBe(1)
    })

    it(`${kind}: dies before the first statement`, async () => {
      const dialect = open()
      const pid = await pidOf(dialect.driver)
      await expect(
        dialect.driver[kind](async (tx) => {
          await terminate(pid)
          await sleep(100)
          await tx.execute(INSERT, [`${kind}-before-1`])
        }),
      ).rejects.toThrow()
      expect(await count(`${kind}-before-%`)).toBe(0)
      expect(uncaught).toEqual([])
      await dialect.driver.transaction((tx) => tx.execute(INSERT, [`${kind}-before-next`]))
      expect(await count(`${kind}-before-next`)).toBe(1)
    })
  }

  it('transaction: dies before a first statement the work does not await; the commit fails with the connection', async () => {
    const dialect = open()
    const pid = await pidOf(dialect.driver)
    let statement: Promise<unknown> | undefined
    const outcome = dialect.driver.transaction(async (tx) => {
      await terminate(pid)
      await sleep(100)
      // pg refuses the query (the client is not queryable) on the next tick, after the work has ended.
      statement = tx.execute(INSERT, ['not-awaited-1'])
      statement.catch(() => {})
    })
    await expect(outcome).rejects.toThrow(/connection error/)
    await expect(statement).rejects.toThrow(/connection error/)
    await sleep(20)
    expect(uncaught).toEqual([])
    expect(await count('not-awaited-%')).toBe(0)
    await dialect.driver.transaction((tx) => tx.execute(INSERT, ['not-awaited-next']))
    expect(await count('not-awaited-next')).toBe(1)
  })

  it('dies just as a plain statement hands the connection to a waiting transaction', async () => {
    // The backend ends itself 150 ms after its last answer (idle_session_timeout). The event loop is held past
    // that, so pg reads the statement's answer and the FATAL in one chunk: had the connection gone to the
    // waiting transaction on the answer (as pg-pool's own query() hands it over), pg would emit 'error' on the
    // FATAL with no listener of the pool's any more, before the transaction has even resumed.
    const url = new URL(POSTGRES_URL)
    url.searchParams.set('options', '-c idle_session_timeout=150')
    const dialect = createPostgresDialect(url.toString(), schema, undefined, { size: 1 })
    dialects.push(dialect)
    await dialect.driver.execute('select 1', [])
    const plain = dialect.driver.execute('select 2 as "two"', [])
    const waiting = dialect.driver.transaction((tx) => tx.execute(INSERT, ['handed-over']))
    // Both sent (or queued for the connection), without letting any answer in.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => process.nextTick(resolve))
    const until = Date.now() + 400
    while (Date.now() < until) {
      // Holding the event loop.
    }
    await expect(plain).resolves.toEqual([{ two: 2 }])
    // Failed with the connection, or (the pool having dropped it first) committed on a new one.
    const outcome = await waiting.then(
      () => 'committed',
      () => 'failed',
    )
    await sleep(20)
    expect(uncaught).toEqual([])
    expect(await count('handed-over')).toBe(outcome === 'committed' ? 1 : 0)
  })
})
