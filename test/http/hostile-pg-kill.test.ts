import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allTables as hooksTables } from '../fixtures/hooks-api/generated/schema.js'
import { allTables as softTables } from '../fixtures/soft-delete-api/generated/schema.js'
import { POSTGRES_OFF } from '../support/test-postgres.js'
import {
  backendsOf,
  buildHooksApp,
  buildSoftApp,
  call,
  openHostileStorage,
  watchProcess,
  type Answer,
  type HostileStorage,
} from './hostile-pg-support.js'

/**
 * Hostile: backends of a small pool terminated (pg_terminate_backend from
 * another connection) while HTTP writes run. Every answer is either a 2xx
 * whose write is in the database, or a 500/503 problem whose write is not;
 * the server serves on afterwards; nothing reaches the process uncaught.
 * The compute function of orders reads the database after the commit: when
 * that read fails, the write's answer stands with the computed field null.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

for (const size of [1, 2]) {
  describe.skipIf(POSTGRES_OFF)(`hostile: backends of a pool of ${size} terminated under HTTP writes`, () => {
    let hostile: HostileStorage
    let hooks: FastifyInstance
    let soft: FastifyInstance
    let admin: pg.Client
    let killer: pg.Client
    const logged: Record<string, unknown>[] = []
    const logger = { level: 'error', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } }

    beforeAll(async () => {
      hostile = await openHostileStorage([...hooksTables, ...softTables], { size, timeoutMs: 30_000 })
      hooks = await buildHooksApp(hostile.storage, logger)
      soft = await buildSoftApp(hostile.storage, logger)
      admin = await hostile.admin()
      killer = await hostile.admin()
    })
    afterAll(async () => {
      await hooks?.close()
      await soft?.close()
      await hostile?.dispose()
    })

    const H = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = {}) =>
      call(hooks, { method, url, headers, ...(payload ? { payload } : {}) })
    const S = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = {}) =>
      call(soft, { method, url, headers, ...(payload ? { payload } : {}) })
    const isFailure = (answer: Answer) =>
      (answer.status === 500 || answer.status === 503) && answer.type.includes('application/problem+json')

    it('each answer is a 2xx with its write, or a 500/503 problem without it', async () => {
      const watch = watchProcess()
      let killing = true
      let kills = 0
      const kill = (async () => {
        while (killing) {
          const { rows } = await killer.query(
            'select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = $1',
            [hostile.application],
          )
          kills += rows.filter((row) => row.killed).length
          await sleep(Math.floor(Math.random() * 15))
        }
      })()
      const problems: string[] = []
      try {
        for (let round = 0; round < 15; round++) {
          // Rows to update and delete, made while the killer runs: retried until they stand.
          const make = async (url: string, payload: object) => {
            for (;;) {
              const made = await H('POST', url, payload)
              if (made.status === 201) return made.body.data as { id: number }
              if (!isFailure(made)) throw new Error(`${made.status} ${JSON.stringify(made.body)}`)
            }
          }
          const tagOf = async (id: number) => {
            for (;;) {
              const read = await H('GET', `/v2/orders/${id}`)
              if (read.status === 200) return read.etag!
            }
          }
          const toUpdate = await make('/v2/orders', { customer: `u-${round}` })
          const toDelete = await make('/v2/orders', { customer: `d-${round}` })
          const updateTag = await tagOf(toUpdate.id)
          const deleteTag = await tagOf(toDelete.id)
          const tasks: Promise<void>[] = []
          const check = (
            what: string,
            answer: Answer,
            ok: number[],
            present: () => Promise<boolean>,
            wanted: boolean,
          ) =>
            (async () => {
              if (ok.includes(answer.status)) {
                if ((await present()) !== wanted) problems.push(`${what}: ${answer.status} but the database disagrees`)
              } else if (isFailure(answer)) {
                if ((await present()) === wanted)
                  problems.push(`${what}: ${answer.status} but the write is there ${JSON.stringify(answer.body)}`)
              } else problems.push(`${what}: unexpected ${answer.status} ${JSON.stringify(answer.body)}`)
            })()
          const exists = async (sql: string, values: unknown[]) => (await admin.query(sql, values)).rows.length > 0
          for (let i = 0; i < 12; i++) {
            const customer = `c-${round}-${i}`
            tasks.push(
              H('POST', '/v2/orders', { customer }).then((answer) =>
                check(
                  `create ${customer}`,
                  answer,
                  [201],
                  async () => {
                    const order = await exists(`select 1 from orders where customer = $1`, [customer])
                    const audit = await exists(
                      `select 1 from audits a join orders o on o.id = a.record_id where a.action = 'order_created' and o.customer = $1`,
                      [customer],
                    )
                    if (order !== audit) problems.push(`create ${customer}: order ${order} but audit ${audit}`)
                    return order
                  },
                  true,
                ),
              ),
            )
            const name = `l-${round}-${i}`
            tasks.push(
              H('POST', '/v2/labels', { name }).then((answer) =>
                check(
                  `label ${name}`,
                  answer,
                  [201],
                  () => exists(`select 1 from labels where name = $1`, [name]),
                  true,
                ),
              ),
            )
            const slug = `p-${round}-${i}`
            tasks.push(
              S('POST', '/v1/posts', { title: 't', slug }).then((answer) =>
                check(`post ${slug}`, answer, [201], () => exists(`select 1 from posts where slug = $1`, [slug]), true),
              ),
            )
          }
          tasks.push(
            H('PATCH', `/v2/orders/${toUpdate.id}`, { total: 77 }, { 'if-match': updateTag }).then((answer) =>
              check(
                `patch ${toUpdate.id}`,
                answer,
                [200],
                async () => {
                  const updated = await exists(`select 1 from orders where id = $1 and total = 77`, [toUpdate.id])
                  const audit = await exists(`select 1 from audits where action = 'order_updated' and record_id = $1`, [
                    toUpdate.id,
                  ])
                  if (updated !== audit) problems.push(`patch ${toUpdate.id}: updated ${updated} but audit ${audit}`)
                  return updated
                },
                true,
              ),
            ),
          )
          tasks.push(
            H('DELETE', `/v2/orders/${toDelete.id}`, undefined, { 'if-match': deleteTag }).then((answer) =>
              check(
                `delete ${toDelete.id}`,
                answer,
                [204],
                async () => {
                  const gone = !(await exists(`select 1 from orders where id = $1`, [toDelete.id]))
                  const audit = await exists(`select 1 from audits where action = 'order_deleted' and record_id = $1`, [
                    toDelete.id,
                  ])
                  if (gone !== audit) problems.push(`delete ${toDelete.id}: gone ${gone} but audit ${audit}`)
                  return gone
                },
                true,
              ),
            ),
          )
          tasks.push(
            H('POST', '/v2/orders', { customer: 'fail-after' }).then((answer) => {
              if (!isFailure(answer)) problems.push(`fail-after: ${answer.status}`)
            }),
          )
          await Promise.all(tasks)
        }
      } finally {
        killing = false
        await kill
      }
      expect(kills).toBeGreaterThan(0)
      await sleep(200)
      if (problems.length)
        console.log(
          JSON.stringify(
            logged.filter((e) => e.msg === 'unhandled error'),
            null,
            1,
          ).slice(0, 6000),
        )
      expect(problems).toEqual([])
      // Serves on: every request now succeeds.
      for (let i = 0; i < 20; i++) {
        const answers = await Promise.all([
          H('POST', '/v2/orders', { customer: `after-${i}` }),
          H('POST', '/v2/labels', { name: `after-${i}` }),
          S('POST', '/v1/posts', { title: 't', slug: `after-${i}` }),
        ])
        expect(
          answers.map((answer) => answer.status),
          JSON.stringify(answers.map((a) => a.body)),
        ).toEqual([201, 201, 201])
      }
      expect((await backendsOf(admin, hostile.application)).length).toBeLessThanOrEqual(size)
      const messages = logged.map((entry) => JSON.stringify(entry))
      expect(messages.filter((line) => /prepared statement/.test(line))).toEqual([])
      watch.stop()
      expect(watch.caught).toEqual([])
      console.log(`pool ${size}: ${kills} backends terminated; logged ${logged.length}`)
    }, 120_000)
  })
}
