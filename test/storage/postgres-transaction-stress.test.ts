import { describe, expect, it } from 'vitest'
import { useNotesSchema } from '../support/postgres-notes-schema.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'

// Hundreds of concurrent transactions on tiny pools, every way of ending mixed.
const notes = useNotesSchema('restmint_transaction_stress')
const { table } = notes
const INSERT = `insert into ${table} ("body") values ($1) returning "id", "body"`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(POSTGRES_OFF)('PostgreSQL transactions under concurrency', () => {
  const open = (size: number) => notes.open({ size, timeoutMs: 0 })

  for (const size of [1, 2]) {
    it(`pool of ${size}: 400 mixed transactions leave exactly the committed rows`, async () => {
      const { driver } = open(size)
      const committed = new Set<string>()
      const problems: string[] = []
      const late: Promise<unknown>[] = []
      const run = async (i: number) => {
        const kind = i % 12
        const tag = `p${size}-${i}`
        try {
          const result = await driver.transaction(async (tx) => {
            switch (kind) {
              case 0: {
                const [row] = await tx.execute(INSERT, [tag])
                if (row!.body !== tag) problems.push(`${tag}: insert returned ${JSON.stringify(row)}`)
                const [echo] = await tx.execute('select $1::text as "tag"', [tag])
                if (echo!.tag !== tag) problems.push(`${tag}: echo returned ${JSON.stringify(echo)}`)
                return 'commit'
              }
              case 1:
                await tx.execute(INSERT, [tag])
                throw new Error('work failed')
              case 2:
                await tx.execute(INSERT, [tag])
                await tx.execute(INSERT, ['dup'])
                return 'unreachable'
              case 3:
                await tx.execute(INSERT, [tag])
                // A text that fails at Parse, the same every time.
                await tx.execute(`selec "body" from ${table}`, [])
                return 'unreachable'
              case 4:
                await tx.execute(INSERT, [tag])
                // A text whose Parse fails, new each time.
                await tx.execute(`select "missing_${i}" from ${table}`, [])
                return 'unreachable'
              case 5:
                await tx.execute(INSERT, [tag])
                // Fails at Bind.
                await tx.execute('select $1::int as "n"', ['not a number'])
                return 'unreachable'
              case 6: {
                const rows = await Promise.all([
                  tx.execute(INSERT, [`${tag}-a`]),
                  tx.execute('select $1::text as "tag"', [tag]),
                  tx.execute(INSERT, [`${tag}-b`]),
                  tx.execute(`select count(*)::int as "n" from ${table} where "body" like $1`, [`${tag}-%`]),
                ])
                if (rows[1][0]!.tag !== tag) problems.push(`${tag}: all-echo ${JSON.stringify(rows[1])}`)
                if (rows[3][0]!.n !== 2) problems.push(`${tag}: all-count ${JSON.stringify(rows[3])}`)
                return 'commit-ab'
              }
              case 7: {
                // Several statements in Promise.all, the middle one failing at Parse, others new texts behind it.
                await Promise.all([
                  tx.execute(INSERT, [`${tag}-a`]),
                  tx.execute(`select "nope" from ${table} where "id" = $1`, [i]),
                  tx.execute(`select "body" from ${table} where "body" = $1 and "id" > ${i % 5}`, [tag]),
                  tx.execute(INSERT, [`${tag}-b`]),
                ])
                return 'unreachable'
              }
              case 8: {
                // Not awaited: goes out before COMMIT, so commits.
                void tx.execute(INSERT, [tag]).catch((error) => problems.push(`${tag}: not awaited ${error}`))
                return 'commit'
              }
              case 9: {
                // Not awaited and failing: the commit fails.
                await tx.execute(INSERT, [tag])
                tx.execute(INSERT, ['dup']).catch(() => {})
                return 'unreachable'
              }
              case 10: {
                // Sent after the end.
                await tx.execute(`select $1::text as "tag"`, [tag])
                late.push(
                  sleep(5).then(() =>
                    tx.execute(INSERT, [`${tag}-late`]).then(
                      () => problems.push(`${tag}: late statement ran`),
                      () => {},
                    ),
                  ),
                )
                return 'none'
              }
              default: {
                // Failing statement swallowed, then work throws.
                await tx.execute(INSERT, [tag])
                await tx.execute(INSERT, ['dup']).catch(() => {})
                await tx.execute(INSERT, [`${tag}-after`]).catch(() => {})
                throw new Error('after swallow')
              }
            }
          })
          if (result === 'commit') committed.add(tag)
          else if (result === 'commit-ab') {
            committed.add(`${tag}-a`)
            committed.add(`${tag}-b`)
          } else if (result !== 'none') problems.push(`${tag}: resolved ${String(result)}`)
        } catch (error) {
          if ([0, 6, 8, 10].includes(kind)) problems.push(`${tag}: rejected ${String(error)}`)
          const message = String((error as Error).message)
          if (/prepared statement|does not exist|already exists/.test(message) && kind !== 4 && kind !== 7)
            problems.push(`${tag}: ${message}`)
        }
      }
      await Promise.race([
        Promise.all(Array.from({ length: 400 }, (_, i) => run(i))),
        sleep(30_000).then(() => {
          throw new Error('hung')
        }),
      ])
      await Promise.all(late)
      expect(problems).toEqual([])
      const rows = await notes
        .admin()
        .driver.execute(`select "body" from ${table} where "body" like $1`, [`p${size}-%`])
      expect(new Set(rows.map((row) => row.body as string))).toEqual(committed)
      // The pool still serves plain statements and transactions.
      for (let i = 0; i < 20; i++) {
        expect(await driver.execute('select $1::int as "n"', [i])).toEqual([{ n: i }])
        expect(await driver.transaction((tx) => tx.execute(INSERT, [`p${size}-after-${i}`]))).toHaveLength(1)
        expect(await driver.transaction((tx) => tx.execute(`selec 1`, [])).catch((e) => e.code)).toBe('42601')
      }
    }, 60_000)
  }
})
