import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useNotesSchema } from '../support/postgres-notes-schema.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'

// The mixed load of postgres-transaction-stress while another connection keeps terminating the pool's
// backends. A transaction that resolved must be in the table; one that failed with the server's own error must
// not; one that lost its connection may be either way only if it lost it after its COMMIT went out.
const notes = useNotesSchema('restmint_transaction_chaos')
const { table } = notes
const INSERT = `insert into ${table} ("body") values ($1) returning "id", "body"`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(POSTGRES_OFF)('PostgreSQL transactions while backends die', () => {
  const uncaught: unknown[] = []
  const onUncaught = (error: unknown) => void uncaught.push(error)

  beforeAll(() => {
    process.on('uncaughtException', onUncaught)
  })
  afterAll(() => {
    process.off('uncaughtException', onUncaught)
  })

  for (const size of [1, 3]) {
    it(`pool of ${size}`, async () => {
      const name = `restmint-chaos-${size}-${process.pid}`
      const url = new URL(POSTGRES_URL)
      url.searchParams.set('application_name', name)
      const dialect = notes.open({ size, timeoutMs: 0 }, undefined, url.toString())
      const driver = dialect.driver
      let killing = true
      const killer = (async () => {
        while (killing) {
          await sleep(3 + Math.random() * 10)
          await notes
            .admin()
            .driver.execute(
              'select pg_terminate_backend("pid") from pg_stat_activity where "application_name" = $1 and random() < 0.5',
              [name],
            )
            .catch(() => {})
        }
      })()
      const resolved = new Set<string>()
      const refused = new Set<string>()
      const problems: string[] = []
      const run = async (i: number) => {
        const tag = `c${size}-${i}`
        const kind = i % 5
        try {
          await driver.transaction(async (tx) => {
            await tx.execute(INSERT, [tag])
            if (kind === 1) await sleep(Math.random() * 5)
            const [echo] = await tx.execute('select $1::text as "tag"', [tag])
            if (echo!.tag !== tag) problems.push(`${tag}: echo ${JSON.stringify(echo)}`)
            if (kind === 2) await tx.execute(INSERT, ['dup'])
            if (kind === 3) throw new Error('work failed')
            if (kind === 4) await Promise.all([tx.execute(`select pg_sleep(0.001)`, []), tx.execute(`select 1`, [])])
          })
          resolved.add(tag)
        } catch (error) {
          const message = String((error as Error).message)
          if (/prepared statement|Cannot read|undefined/.test(message)) problems.push(`${tag}: ${message}`)
          if (kind === 2 && (error as { code?: string }).code === '23505') refused.add(tag)
          if (kind === 3 && message === 'work failed') refused.add(tag)
        }
      }
      const all = Promise.all(Array.from({ length: 300 }, (_, i) => sleep(i).then(() => run(i))))
      const outcome = await Promise.race([all.then(() => 'done'), sleep(40_000).then(() => 'hung')])
      killing = false
      await killer
      expect(outcome).toBe('done')
      expect(problems).toEqual([])
      expect(uncaught).toEqual([])
      const rows = await notes
        .admin()
        .driver.execute(`select "body" from ${table} where "body" like $1`, [`c${size}-%`])
      const present = new Set(rows.map((row) => row.body as string))
      expect([...resolved].filter((tag) => !present.has(tag))).toEqual([])
      expect([...refused].filter((tag) => present.has(tag))).toEqual([])
      // The pool serves on once the killing stops (and its last victims have heard of it).
      await sleep(200)
      for (let i = 0; i < 10; i++) {
        await driver.transaction((tx) => tx.execute(INSERT, [`c${size}-after-${i}`]))
        expect(await driver.execute('select $1::int as "n"', [i])).toEqual([{ n: i }])
      }
    }, 60_000)
  }
})
