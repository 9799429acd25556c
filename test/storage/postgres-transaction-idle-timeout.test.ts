import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresDialect } from '../../runtime/storage/postgres/postgres-dialect.js'
import type { StorageDialect } from '../../runtime/storage/storage-dialect.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'

// idle_in_transaction_session_timeout is the server's guard against a client that holds a transaction (and its
// row and advisory locks) open while it waits on something else, a hook awaiting a hung call: between its
// statements a transaction's session must show as idle in a transaction, and the server must end it. (A
// transaction whose statements went out with Flush instead of Sync stayed `active` and escaped the guard.)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
// Named for the dialects; nothing is created in it.
const schema = `restmint_idle_timeout_${process.pid}`

describe.skipIf(POSTGRES_OFF)('PostgreSQL transactions and idle_in_transaction_session_timeout', () => {
  let guarded: StorageDialect
  let watcher: StorageDialect

  beforeAll(() => {
    const url = new URL(POSTGRES_URL)
    url.searchParams.set('options', '-c idle_in_transaction_session_timeout=200')
    guarded = createPostgresDialect(url.toString(), schema, undefined, { size: 1 })
    watcher = createPostgresDialect(POSTGRES_URL, schema, undefined, { size: 1 })
  })
  afterAll(async () => {
    await guarded.close()
    await watcher.close()
  })

  const holdIdle = (kind: 'transaction' | 'scriptTransaction') => {
    let state: unknown
    const outcome = guarded.driver[kind](async (tx) => {
      const [own] = await tx.execute('select pg_backend_pid() as "pid"', [])
      await sleep(100)
      state = (await watcher.driver.execute('select "state" from pg_stat_activity where "pid" = $1', [own!.pid]))[0]!
        .state
      // Longer than the timeout, waiting on nothing of the database's.
      await sleep(400)
      await tx.execute('select 1', [])
    })
    return { outcome, state: () => state }
  }

  it('scriptTransaction (BEGIN … COMMIT): the server ends a transaction left idle too long', async () => {
    const { outcome, state } = holdIdle('scriptTransaction')
    await expect(outcome).rejects.toThrow()
    expect(state()).toBe('idle in transaction')
  })

  it('transaction: the server ends a transaction left idle too long', async () => {
    const { outcome } = holdIdle('transaction')
    await expect(outcome).rejects.toThrow()
  })

  it('transaction: pg_stat_activity shows a transaction waiting on the client as idle in transaction', async () => {
    const { outcome, state } = holdIdle('transaction')
    await outcome.catch(() => {})
    expect(state()).toBe('idle in transaction')
  })
})
