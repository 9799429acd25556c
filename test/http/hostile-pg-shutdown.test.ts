import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { buildServer as buildHooksServer } from '../fixtures/hooks-api/generated/server.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'
import { watchProcess } from './hostile-pg-support.js'

/**
 * Hostile: close() (the drain, then the server's own pool ended) while
 * creates with hooks are in flight over a pool of 2. Every request that was
 * answered 201 is stored, every other one is not; no request fails on a pool
 * already ended; nothing reaches the process uncaught.
 */
describe.skipIf(POSTGRES_OFF)('hostile: close() under writes, the server owning its pool', () => {
  const schema = `restmint_hostile_shutdown_${randomBytes(4).toString('hex')}`
  afterAll(async () => {
    const client = new pg.Client(POSTGRES_URL)
    await client.connect()
    await client.query(`drop schema if exists "${schema}" cascade`)
    await client.end()
  })

  it('201 and stored, or refused and not stored', async () => {
    const logged: Record<string, unknown>[] = []
    const app = await buildHooksServer({
      db: POSTGRES_URL,
      schema,
      pool: { size: 2, timeoutMs: 10_000 },
      docs: false,
      env: { HOOKS_TEST_JWT_SECRET: randomBytes(32).toString('hex') },
      logger: { level: 'error', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } },
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const watch = watchProcess()
    let answered = 0
    let startClose: () => void = () => {}
    const closing = new Promise<void>((resolve) => (startClose = resolve))
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i / 10))
        try {
          const response = await fetch(`${address}/v2/orders`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ customer: `shut-${i}` }),
          })
          const body = await response.json().catch(() => null)
          if (++answered === 60) startClose()
          return { i, status: response.status, code: body?.code as string | undefined }
        } catch (error) {
          return { i, status: -1, code: String((error as Error).cause ?? error) }
        }
      }).concat([
        (async () => {
          await closing
          await app.close()
          return { i: -1, status: 0, code: 'closed' }
        })(),
      ]),
    )
    watch.stop()
    const client = new pg.Client(POSTGRES_URL)
    await client.connect()
    const { rows } = await client.query(`select customer from "${schema}".orders`)
    await client.end()
    const stored = new Set(rows.map((row) => row.customer as string))
    const tally: Record<string, number> = {}
    const wrong: string[] = []
    for (const { i, status, code } of outcomes) {
      if (i < 0) continue
      const key = `${status} ${status === -1 ? 'connection' : (code ?? '')}`
      tally[key] = (tally[key] ?? 0) + 1
      const present = stored.has(`shut-${i}`)
      if (status === 201 && !present) wrong.push(`${i}: 201, not stored`)
      if (status !== 201 && present) wrong.push(`${i}: ${status} ${code}, stored`)
      if (status >= 500 && status !== 503) wrong.push(`${i}: ${status} ${code}`)
    }
    console.log(tally, logged.map((entry) => (entry.err as { message?: string })?.message ?? entry.msg).slice(0, 5))
    expect(wrong).toEqual([])
    expect(watch.caught).toEqual([])
  }, 60_000)
})
