import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresDialect } from '../../runtime/storage/postgres/postgres-dialect.js'
import type { SqlExecutor } from '../../runtime/storage/storage-dialect.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'

// PostgresDriver sends a transaction's BEGIN without waiting for it, ahead of the first statement (one write,
// one answer): the transaction must behave as if it had waited. A pool of one connection, so every transaction below
// reuses the connection the one before it left.
const schema = `restmint_transactions_${process.pid}`
const statements: string[] = []
const dialect = POSTGRES_OFF
  ? undefined
  : createPostgresDialect(POSTGRES_URL, schema, (sql) => statements.push(sql), { size: 1 })
const table = `"${schema}"."notes"`

describe.skipIf(POSTGRES_OFF)('PostgreSQL transactions (BEGIN pipelined with the first statement)', () => {
  const driver = () => dialect!.driver
  const count = async () => Number((await driver().execute(`select count(*) as "n" from ${table}`, []))[0]!.n)

  beforeAll(async () => {
    await driver().execute(`create schema "${schema}"`, [])
    await driver().execute(`create table ${table} ("id" serial primary key, "body" text not null unique)`, [])
  })
  afterAll(async () => {
    await driver().execute(`drop schema "${schema}" cascade`, [])
    await dialect!.close()
  })

  it('runs every statement in the transaction, in order, between begin and commit', async () => {
    statements.length = 0
    const rows = await driver().transaction(async (executor) => {
      await executor.execute(`insert into ${table} ("body") values ($1)`, ['a'])
      return executor.execute(`select "body" from ${table} order by "id"`, [])
    })
    expect(rows).toEqual([{ body: 'a' }])
    expect(statements).toEqual([
      'begin',
      `insert into ${table} ("body") values ($1)`,
      `select "body" from ${table} order by "id"`,
      'commit',
    ])
  })

  it('rolls back what ran when the work throws, and the connection serves the next transaction', async () => {
    const before = await count()
    await expect(
      driver().transaction(async (executor) => {
        await executor.execute(`insert into ${table} ("body") values ($1)`, ['b'])
        throw new Error('hook failed')
      }),
    ).rejects.toThrow('hook failed')
    expect(await count()).toBe(before)
    await driver().transaction((executor) => executor.execute(`insert into ${table} ("body") values ($1)`, ['c']))
    expect(await count()).toBe(before + 1)
  })

  it("rejects with the first statement's own error, leaving nothing behind", async () => {
    const before = await count()
    await expect(
      driver().transaction(async (executor) => {
        await executor.execute(`insert into ${table} ("body") values ($1)`, ['a'])
        await executor.execute(`insert into ${table} ("body") values ($1)`, ['never'])
      }),
    ).rejects.toMatchObject({ code: '23505' })
    expect(await count()).toBe(before)
  })

  it('releases the connection of work that throws before any statement, sending nothing', async () => {
    statements.length = 0
    await expect(
      driver().transaction(async () => {
        throw new Error('before any statement')
      }),
    ).rejects.toThrow('before any statement')
    expect(statements).toEqual([])
    // The pool's one connection came back: the next transaction gets it.
    await driver().transaction((executor) => executor.execute(`insert into ${table} ("body") values ($1)`, ['d']))
  })

  it('refuses a statement sent after its transaction ended, beginning nothing on the released connection', async () => {
    const before = await count()
    let late: Promise<unknown> | undefined
    await driver().transaction(async (executor) => {
      late = new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
        executor.execute(`insert into ${table} ("body") values ($1)`, ['late']),
      )
    })
    await expect(late).rejects.toThrow('a statement was sent after its transaction ended')
    // Had it begun a transaction on the released connection, this insert would stay uncommitted in it.
    await driver().execute(`insert into ${table} ("body") values ($1)`, ['after'])
    expect(await count()).toBe(before + 1)
  })

  it('leaves the connection able to run a statement whose values pg could not serialize once', async () => {
    const insert = `insert into ${table} ("body") values ($1)`
    await driver().execute(insert, ['prepared'])
    const unserializable = {
      toPostgres() {
        throw new Error('cannot serialize')
      },
    }
    // pg closes the statement's prepared name on the connection when its values fail to serialize,
    // while still counting it prepared.
    await expect(driver().transaction((executor) => executor.execute(insert, [unserializable]))).rejects.toThrow(
      'cannot serialize',
    )
    const before = await count()
    await driver().transaction((executor) => executor.execute(insert, ['next']))
    await driver().execute(insert, ['on the pool'])
    expect(await count()).toBe(before + 2)
  })

  it('refuses a statement sent while the transaction commits, committing nothing outside it', async () => {
    const before = await count()
    let executor: SqlExecutor | undefined
    let late: Promise<unknown> | undefined
    const heard: string[] = []
    const watched = createPostgresDialect(
      POSTGRES_URL,
      schema,
      (sql) => {
        heard.push(sql)
        // Sent just after COMMIT is.
        if (sql === 'commit') {
          queueMicrotask(() => {
            late = executor!.execute(`insert into ${table} ("body") values ($1)`, ['late commit'])
            // Handled now: it rejects while the transaction still waits for COMMIT; the test checks it after.
            late.catch(() => {})
          })
        }
      },
      { size: 1 },
    )
    try {
      await watched.driver.transaction(async (given) => {
        executor = given
        await given.execute(`insert into ${table} ("body") values ($1)`, ['committed'])
      })
      await expect(late).rejects.toThrow('a statement was sent after its transaction ended')
      expect(await count()).toBe(before + 1)
    } finally {
      await watched.close()
    }
  })

  it('sends nothing for a transaction that runs no statement', async () => {
    statements.length = 0
    expect(await driver().transaction(async () => 'done')).toBe('done')
    expect(statements).toEqual([])
    expect(await count()).toBeGreaterThan(0)
  })

  it('keeps its writes from other connections until it commits', async () => {
    const other = createPostgresDialect(POSTGRES_URL, schema, undefined, { size: 1 })
    const countElsewhere = async () =>
      Number((await other.driver.execute(`select count(*) as "n" from ${table}`, []))[0]!.n)
    try {
      const before = await countElsewhere()
      await driver().transaction(async (executor) => {
        await executor.execute(`insert into ${table} ("body") values ($1)`, ['unseen until commit'])
        expect(await countElsewhere()).toBe(before)
      })
      expect(await countElsewhere()).toBe(before + 1)
    } finally {
      await other.close()
    }
  })

  it('refuses every statement after a failed one, even when the work goes on, and commits nothing', async () => {
    const before = await count()
    const outcome = driver().transaction(async (executor) => {
      await executor.execute(`insert into ${table} ("body") values ($1)`, ['kept only if committed'])
      await executor.execute(`insert into ${table} ("body") values ($1)`, ['a']).catch(() => 'swallowed')
      await expect(
        executor.execute(`insert into ${table} ("body") values ($1)`, ['after the failure']),
      ).rejects.toMatchObject({ code: '25P02' })
      return 'the work resolved'
    })
    await expect(outcome).rejects.toMatchObject({ name: 'TransactionAbortedError', cause: { code: '23505' } })
    expect(await count()).toBe(before)
  })

  it('fails with the error of a statement the work did not await, committing nothing', async () => {
    const before = await count()
    // Busy just after COMMIT goes out, so the failed statement's answer and COMMIT's arrive in one read.
    const busy = createPostgresDialect(
      POSTGRES_URL,
      schema,
      (sql) => {
        if (sql === 'commit') process.nextTick(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50))
      },
      { size: 1 },
    )
    try {
      for (const tried of [dialect!, busy]) {
        await expect(
          tried.driver.transaction(async (executor) => {
            await executor.execute(`insert into ${table} ("body") values ($1)`, ['not awaited, first'])
            executor.execute(`insert into ${table} ("body") values ($1)`, ['a']).catch(() => {})
          }),
        ).rejects.toMatchObject({ name: 'TransactionAbortedError', cause: { code: '23505' } })
        expect(await count()).toBe(before)
      }
    } finally {
      await busy.close()
    }
    await driver().transaction((executor) => executor.execute(`insert into ${table} ("body") values ($1)`, ['e']))
    expect(await count()).toBe(before + 1)
  })

  it('fails, committing nothing, when a statement the work did not await could not be sent', async () => {
    const before = await count()
    const unserializable = {
      toPostgres() {
        throw new Error('cannot serialize')
      },
    }
    await expect(
      driver().transaction(async (executor) => {
        await executor.execute(`insert into ${table} ("body") values ($1)`, ['before the unsendable one'])
        executor.execute(`insert into ${table} ("body") values ($1)`, [unserializable]).catch(() => {})
      }),
    ).rejects.toThrow('cannot serialize')
    expect(await count()).toBe(before)
  })

  it('leaves no unhandled rejection behind a statement sent after the end and never awaited', async () => {
    const unhandled: unknown[] = []
    const hear = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', hear)
    try {
      let late: (() => void) | undefined
      await driver().transaction(async (executor) => {
        await executor.execute('select 1', [])
        late = () => void executor.execute('select 2', [])
      })
      late!()
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', hear)
    }
  })

  it('discards a connection whose prepared statements were dropped behind its back, and the pool serves on', async () => {
    await driver().transaction((executor) => executor.execute('select 1', []))
    // Forgets every statement prepared on the connection, BEGIN's included, while pg still counts them prepared.
    await driver().scriptTransaction(async (executor) => {
      await executor.execute('select 1', [])
      await executor.executeScript('deallocate all')
    })
    const outcomes: string[] = []
    for (const body of ['after deallocate 1', 'after deallocate 2', 'after deallocate 3']) {
      outcomes.push(
        await driver()
          .transaction((executor) => executor.execute(`insert into ${table} ("body") values ($1)`, [body]))
          .then(
            () => 'committed',
            (error: { code?: string }) => error.code ?? 'failed',
          ),
      )
    }
    // The first use of the connection finds BEGIN gone (26000) and discards it; the next ones get a new one.
    expect(outcomes).toEqual(['26000', 'committed', 'committed'])
  })

  it("records a connection's first statement as prepared only once its Parse succeeded, BEGIN riding ahead of it", async () => {
    // A new pool: its one connection's first transaction starts with a statement whose Parse fails.
    const fresh = createPostgresDialect(POSTGRES_URL, schema, undefined, { size: 1 })
    const select = `select count(*)::int as "n" from "${schema}"."later"`
    try {
      await expect(fresh.driver.transaction((executor) => executor.execute(select, []))).rejects.toMatchObject({
        code: '42P01',
      })
      await driver().execute(`create table "${schema}"."later" ("id" int)`, [])
      expect(await fresh.driver.transaction((executor) => executor.execute(select, []))).toEqual([{ n: 0 }])
    } finally {
      await fresh.close()
    }
  })

  it('prepares a statement once per connection whether its first run failed or not', async () => {
    // A text this connection has not prepared yet: its first run fails after its Parse succeeded.
    const insert = `insert into ${table} ("body") values ($1) returning "id"`
    await expect(driver().transaction((executor) => executor.execute(insert, ['a']))).rejects.toMatchObject({
      code: '23505',
    })
    const [row] = await driver().transaction((executor) => executor.execute(insert, ['prepared after a failure']))
    expect(row).toHaveProperty('id')
    // A text whose Parse itself fails, then one that follows it in the same transaction.
    await expect(
      driver().transaction(async (executor) => {
        await Promise.all([
          executor.execute(`select "no_such_column" from ${table}`, []),
          executor.execute(`select "body" from ${table} where "body" = $1`, ['skipped']),
        ])
      }),
    ).rejects.toMatchObject({ code: '42703' })
    const found = await driver().transaction((executor) =>
      executor.execute(`select "body" from ${table} where "body" = $1`, ['prepared after a failure']),
    )
    expect(found).toEqual([{ body: 'prepared after a failure' }])
  })

  it('rolls back and discards a connection that dies in the middle, and the pool serves the next one', async () => {
    const before = await count()
    const killer = createPostgresDialect(POSTGRES_URL, schema, undefined, { size: 1 })
    try {
      await expect(
        driver().transaction(async (executor) => {
          await executor.execute(`insert into ${table} ("body") values ($1)`, ['lost with its connection'])
          const [own] = await executor.execute('select pg_backend_pid() as "pid"', [])
          await killer.driver.execute('select pg_terminate_backend($1)', [own!.pid])
          await executor.execute(`insert into ${table} ("body") values ($1)`, ['never reaches the server'])
        }),
      ).rejects.toThrow()
      expect(await count()).toBe(before)
      await driver().transaction((executor) =>
        executor.execute(`insert into ${table} ("body") values ($1)`, ['on a new connection']),
      )
      expect(await count()).toBe(before + 1)
    } finally {
      await killer.close()
    }
  })

  it('keeps the connection, and what is prepared on it, when the server refuses a plain statement', async () => {
    const pid = async () => (await driver().execute('select pg_backend_pid() as "pid"', []))[0]!.pid
    const before = await pid()
    await expect(driver().execute(`insert into ${table} ("body") values ($1)`, ['a'])).rejects.toMatchObject({
      code: '23505',
    })
    expect(await pid()).toBe(before)
  })
})
