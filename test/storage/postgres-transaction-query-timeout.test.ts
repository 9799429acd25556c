import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresDialect } from '../../runtime/storage/postgres/postgres-dialect.js'
import type { StorageDialect } from '../../runtime/storage/storage-dialect.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'

// pg's `query_timeout` (a parameter of the URL: `?query_timeout=300`) arms a timer for each query it is given and
// clears it through the query's callback when the query ends; a pipelined connection whose timer fires is
// destroyed. Every statement of a transaction, its first (which carries BEGIN) included, must end its timer,
// or the timer destroys the connection later, under whatever the pool lent it to meanwhile; and the timeout
// must limit each statement, not the whole transaction.
const schema = `restmint_query_timeout_${process.pid}`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const withQueryTimeout = (ms: number) => {
  const url = new URL(POSTGRES_URL)
  url.searchParams.set('query_timeout', String(ms))
  return url.toString()
}

describe.skipIf(POSTGRES_OFF)('PostgreSQL transactions under pg query_timeout', () => {
  let dialect: StorageDialect
  // Without the timeout: dropping the schema waits for the timed-out statement's backend to let go of its locks.
  let admin: StorageDialect

  beforeAll(async () => {
    dialect = createPostgresDialect(withQueryTimeout(600), schema, undefined, { size: 1 })
    admin = createPostgresDialect(POSTGRES_URL, schema, undefined, { size: 1 })
  })
  afterAll(async () => {
    await dialect.close()
    await admin.close()
  })

  it('a committed transaction leaves no timer behind to destroy the connection under the next statement', async () => {
    await dialect.driver.transaction((tx) => tx.execute('select 1', []))
    await sleep(400)
    // 300 ms, well within the 600 ms each query may take: it spans the moment the transaction's timer would fire.
    await expect(dialect.driver.execute('select pg_sleep(0.3), 1 as "one"', [])).resolves.toMatchObject([{ one: 1 }])
  })

  it('a rolled-back and a failed transaction leave none either', async () => {
    await expect(
      dialect.driver.transaction(async (tx) => {
        await tx.execute('select 1', [])
        throw new Error('work failed')
      }),
    ).rejects.toThrow('work failed')
    await expect(dialect.driver.transaction((tx) => tx.execute('select 1/0', []))).rejects.toMatchObject({
      code: '22012',
    })
    await sleep(400)
    await expect(dialect.driver.execute('select pg_sleep(0.3), 1 as "one"', [])).resolves.toMatchObject([{ one: 1 }])
  })

  it('times each statement, not the whole transaction: work longer than query_timeout commits', async () => {
    const rows = await dialect.driver.transaction(async (tx) => {
      await tx.execute('select 1', [])
      await sleep(400)
      await tx.execute('select 2', [])
      await sleep(400)
      return tx.execute('select 3 as "three"', [])
    })
    expect(rows).toEqual([{ three: 3 }])
  })

  it("a statement slower than query_timeout fails with pg's error, commits nothing, and the pool serves on", async () => {
    const table = `"${schema}"."notes"`
    await admin.driver.execute(`create schema "${schema}"`, [])
    try {
      await admin.driver.execute(`create table ${table} ("body" text)`, [])
      await expect(
        dialect.driver.transaction(async (tx) => {
          await tx.execute(`insert into ${table} values ('lost')`, [])
          await tx.execute('select pg_sleep(1.2)', [])
        }),
      ).rejects.toThrow('Query read timeout')
      expect(await dialect.driver.execute(`select count(*)::int as "n" from ${table}`, [])).toEqual([{ n: 0 }])
      await dialect.driver.transaction((tx) => tx.execute(`insert into ${table} values ('kept')`, []))
      expect(await dialect.driver.execute(`select count(*)::int as "n" from ${table}`, [])).toEqual([{ n: 1 }])
    } finally {
      await admin.driver.execute(`drop schema "${schema}" cascade`, [])
    }
  })
})
