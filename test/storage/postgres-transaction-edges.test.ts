import { describe, expect, it } from 'vitest'
import type { SqlExecutor, StorageDialect } from '../../runtime/storage/storage-dialect.js'
import { useNotesSchema } from '../support/postgres-notes-schema.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'

const notes = useNotesSchema('restmint_transaction_edges', { size: 2, timeoutMs: 10_000 })
const { schema, table } = notes
const INSERT = `insert into ${table} ("body") values ($1)`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const unserializable = {
  toPostgres() {
    throw new Error('cannot serialize')
  },
}

describe.skipIf(POSTGRES_OFF)('PostgreSQL transaction edges', () => {
  const open = (size = 1, onStatement?: (sql: string) => void) => notes.open({ size, timeoutMs: 10_000 }, onStatement)
  const count = async (like = '%') =>
    Number(
      (await notes.admin().driver.execute(`select count(*) as "n" from ${table} where "body" like $1`, [like]))[0]!.n,
    )
  const pidOf = async (executor: SqlExecutor) =>
    Number((await executor.execute('select pg_backend_pid() as "pid"', []))[0]!.pid)
  const terminate = (pid: number) => notes.admin().driver.execute('select pg_terminate_backend($1)', [pid])
  const healthy = async (dialect: StorageDialect, tag: string) => {
    await dialect.driver.transaction((tx) => tx.execute(INSERT, [`${tag}-healthy`]))
    expect(await dialect.driver.execute('select $1::text as "t"', [tag])).toEqual([{ t: tag }])
    expect(await count(`${tag}-healthy`)).toBe(1)
  }

  describe('values that cannot serialize', () => {
    for (const position of ['first', 'middle', 'last'] as const) {
      for (const style of ['awaited', 'Promise.all'] as const) {
        it(`${position} statement, ${style}: nothing committed, the pool keeps serving`, async () => {
          const dialect = open(1)
          const tag = `ser-${position}-${style}`
          // Prepared on the connection already, and new texts: both.
          await dialect.driver.execute(INSERT, ['warm-' + tag])
          const texts = [INSERT, `${INSERT} returning "id"`, `${INSERT} returning "body"`]
          const values = [[`${tag}-1`], [`${tag}-2`], [`${tag}-3`]] as unknown[][]
          values[{ first: 0, middle: 1, last: 2 }[position]] = [unserializable]
          await expect(
            dialect.driver.transaction(async (tx) => {
              if (style === 'awaited') {
                for (let i = 0; i < 3; i++) await tx.execute(texts[i]!, values[i]!)
              } else await Promise.all(texts.map((text, i) => tx.execute(text, values[i]!)))
            }),
          ).rejects.toThrow()
          expect(await count(`${tag}-%`)).toBe(0)
          await healthy(dialect, tag)
          for (const text of texts)
            await dialect.driver.transaction((tx) => tx.execute(text, [`${tag}-again-${text.length}`]))
          expect(await count(`${tag}-again-%`)).toBe(3)
        })
      }
    }

    it('the failure swallowed by the work: commit still refuses', async () => {
      const dialect = open(1)
      await expect(
        dialect.driver.transaction(async (tx) => {
          await tx.execute(INSERT, ['swallow-1'])
          await tx.execute(INSERT, [unserializable]).catch(() => {})
          return 'resolved'
        }),
      ).rejects.toThrow('cannot serialize')
      expect(await count('swallow-%')).toBe(0)
      await healthy(dialect, 'swallow')
    })
  })

  describe('the backend terminated', () => {
    it('between statements (work awaits something else meanwhile)', async () => {
      const dialect = open(1)
      await expect(
        dialect.driver.transaction(async (tx) => {
          await tx.execute(INSERT, ['term-between-1'])
          await terminate(await pidOf(tx))
          await sleep(100)
          await tx.execute(INSERT, ['term-between-2'])
        }),
      ).rejects.toThrow()
      expect(await count('term-between-%')).toBe(0)
      await healthy(dialect, 'term-between')
    })

    it('before the first statement', async () => {
      const dialect = open(1)
      const pid = await pidOf(dialect.driver)
      await expect(
        dialect.driver.transaction(async (tx) => {
          await terminate(pid)
          await sleep(100)
          await tx.execute(INSERT, ['term-before-1'])
        }),
      ).rejects.toThrow()
      expect(await count('term-before-%')).toBe(0)
      await healthy(dialect, 'term-before')
    })

    it('while the commit is in flight', async () => {
      let pid = 0
      const dialect = open(1, (sql) => {
        if (sql === 'commit') void terminate(pid)
      })
      pid = await pidOf(dialect.driver)
      const outcome = await dialect.driver
        .transaction(async (tx) => {
          await tx.execute(`select pg_sleep(0.05)`, [])
          await tx.execute(INSERT, ['term-commit-1'])
          await tx.execute(`select pg_sleep(0.05)`, [])
        })
        .then(
          () => 'committed',
          (error) => `failed: ${error}`,
        )
      const rows = await count('term-commit-%')
      // Either outcome is fine as long as it agrees with the table.
      expect(outcome === 'committed' ? 1 : 0).toBe(rows)
      await healthy(dialect, 'term-commit')
    })

    it('while a statement runs (pg_sleep)', async () => {
      const dialect = open(1)
      await expect(
        dialect.driver.transaction(async (tx) => {
          const pid = await pidOf(tx)
          await tx.execute(INSERT, ['term-during-1'])
          setTimeout(() => void terminate(pid), 50)
          await tx.execute('select pg_sleep(1)', [])
        }),
      ).rejects.toThrow()
      expect(await count('term-during-%')).toBe(0)
      await healthy(dialect, 'term-during')
    })
  })

  it('statement_timeout fails the statement and rolls back; the connection serves on', async () => {
    const dialect = open(1)
    await dialect.driver.execute(`set statement_timeout = 100`, [])
    await expect(
      dialect.driver.transaction(async (tx) => {
        await tx.execute(INSERT, ['timeout-1'])
        await tx.execute('select pg_sleep(1)', [])
      }),
    ).rejects.toMatchObject({ code: '57014' })
    expect(await count('timeout-%')).toBe(0)
    // The timeout does not run across the transaction: each statement gets its own.
    await dialect.driver.transaction(async (tx) => {
      await tx.execute('select pg_sleep(0.06)', [])
      await tx.execute('select pg_sleep(0.06)', [])
      await tx.execute(INSERT, ['timeout-2'])
    })
    expect(await count('timeout-%')).toBe(1)
    await dialect.driver.execute(`set statement_timeout = 0`, [])
    await healthy(dialect, 'timeout')
  })

  describe('locks held until the end', () => {
    it('pg_advisory_xact_lock', async () => {
      const dialect = open(1)
      const other = open(1)
      const tryLock = async () =>
        (await other.driver.transaction((tx) => tx.execute('select pg_try_advisory_xact_lock(4242) as "got"', [])))[0]!
          .got
      await dialect.driver.transaction(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(4242)', [])
        expect(await tryLock()).toBe(false)
        await tx.execute('select 1', [])
        await sleep(20)
        expect(await tryLock()).toBe(false)
      })
      expect(await tryLock()).toBe(true)
      await expect(
        dialect.driver.transaction(async (tx) => {
          await tx.execute('select pg_advisory_xact_lock(4242)', [])
          expect(await tryLock()).toBe(false)
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      expect(await tryLock()).toBe(true)
    })

    it('select for update', async () => {
      const dialect = open(1)
      const other = open(1)
      await notes.admin().driver.execute(INSERT, ['locked-row'])
      const tryUpdate = () =>
        other.driver
          .transaction((tx) =>
            tx.execute(`select "id" from ${table} where "body" = $1 for update nowait`, ['locked-row']),
          )
          .then(
            () => 'free',
            (error) => error.code,
          )
      await dialect.driver.transaction(async (tx) => {
        await tx.execute(`select "id" from ${table} where "body" = $1 for update`, ['locked-row'])
        expect(await tryUpdate()).toBe('55P03')
        await tx.execute('select 1', [])
        expect(await tryUpdate()).toBe('55P03')
      })
      expect(await tryUpdate()).toBe('free')
    })

    it('a second transaction waiting on the lock proceeds after the first commits, seeing its write', async () => {
      const a = open(1)
      const b = open(1)
      await notes.admin().driver.execute(`insert into ${table} ("body") values ('counter-0')`, [])
      const order: string[] = []
      await a.driver.transaction(async (tx) => {
        await tx.execute(`select "id" from ${table} where "body" = 'counter-0' for update`, [])
        const waiting = b.driver.transaction(async (tx2) => {
          const rows = await tx2.execute(`select "body" from ${table} where "body" like 'counter-%' for update`, [])
          order.push(`b saw ${rows.map((r) => r.body).join(',')}`)
        })
        await sleep(100)
        order.push('a updates')
        await tx.execute(`update ${table} set "body" = 'counter-1' where "body" = 'counter-0'`, [])
        // b finishes only after a's commit.
        void waiting.then(() => order.push('b done'))
        await sleep(50)
        order.push('a commits')
      })
      await sleep(100)
      expect(order).toEqual(['a updates', 'a commits', 'b saw counter-1', 'b done'])
    })
  })

  it('type parsers: a transaction parses rows as the pool does', async () => {
    const dialect = open(1)
    const text = `select 9007199254740::bigint as "b", '2024-02-03'::date as "d", '2024-02-03T04:05:06.789Z'::timestamptz as "t", 1.50::numeric as "n", '{"a":1}'::jsonb as "j", true as "bool"`
    const pooled = await dialect.driver.execute(text, [])
    const inTransaction = await dialect.driver.transaction((tx) => tx.execute(text, []))
    expect(inTransaction).toEqual(pooled)
  })

  it('an empty statement and a statement returning no rows', async () => {
    const dialect = open(1)
    const result = await dialect.driver.transaction(async (tx) => {
      const empty = await tx.execute('', [])
      const none = await tx.execute(`select "id" from ${table} where false`, [])
      const after = await tx.execute('select 1 as "one"', [])
      return { empty, none, after }
    })
    expect(result).toEqual({ empty: [], none: [], after: [{ one: 1 }] })
    await healthy(dialect, 'empty')
  })

  it('a statement the server refuses in a transaction block (rolled back work stays rolled back)', async () => {
    const dialect = open(1)
    const outcome = await dialect.driver
      .transaction(async (tx) => {
        await tx.execute(INSERT, ['vacuum-1'])
        await tx.execute(`vacuum ${table}`, [])
      })
      .then(
        () => 'ok',
        (error) => error.code,
      )
    expect(outcome).toBe('25001')
    expect(await count('vacuum-%')).toBe(0)
    await healthy(dialect, 'vacuum')
  })

  it('a deferred constraint that fails at commit: commit rejects with it, nothing stays, the connection serves on', async () => {
    const dialect = open(1)
    const deferred = `"${schema}"."deferred"`
    await notes
      .admin()
      .driver.execute(
        `create table ${deferred} ("k" int, constraint "k_unique" unique ("k") deferrable initially deferred)`,
        [],
      )
    await expect(
      dialect.driver.transaction(async (tx) => {
        await tx.execute(`insert into ${deferred} values (1)`, [])
        await tx.execute(`insert into ${deferred} values (1)`, [])
        await tx.execute(INSERT, ['deferred-1'])
      }),
    ).rejects.toMatchObject({ code: '23505', constraint: 'k_unique' })
    expect(await notes.admin().driver.execute(`select count(*)::int as "n" from ${deferred}`, [])).toEqual([{ n: 0 }])
    expect(await count('deferred-%')).toBe(0)
    for (let i = 0; i < 5; i++) {
      await dialect.driver.transaction((tx) => tx.execute(`insert into ${deferred} values ($1)`, [10 + i]))
    }
    expect(await notes.admin().driver.execute(`select count(*)::int as "n" from ${deferred}`, [])).toEqual([{ n: 5 }])
    await healthy(dialect, 'deferred')
  })

  it('2000 statements pipelined in one transaction, answers in order', async () => {
    const dialect = open(1)
    const results = await dialect.driver.transaction((tx) =>
      Promise.all(
        Array.from({ length: 2000 }, (_, i) =>
          i % 2 === 0
            ? tx.execute(`select $1::int as "i", repeat('x', $2::int) as "pad"`, [i, i % 500])
            : tx.execute(INSERT, [`bulk-${i}`]),
        ),
      ),
    )
    results.forEach((rows, i) => {
      if (i % 2 === 0) expect(rows).toEqual([{ i, pad: 'x'.repeat(i % 500) }])
      else expect(rows).toEqual([])
    })
    expect(await count('bulk-%')).toBe(1000)
  })

  it('a statement cancelled (pg_cancel_backend) fails the transaction; nothing stays', async () => {
    const dialect = open(1)
    await expect(
      dialect.driver.transaction(async (tx) => {
        const pid = await pidOf(tx)
        await tx.execute(INSERT, ['cancel-1'])
        setTimeout(() => void notes.admin().driver.execute('select pg_cancel_backend($1)', [pid]), 50)
        await tx.execute('select pg_sleep(2)', [])
      }),
    ).rejects.toMatchObject({ code: '57014' })
    expect(await count('cancel-%')).toBe(0)
    await healthy(dialect, 'cancel')
  })
})
