import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createStorage, type Storage } from '../../runtime/index.js'
import { allTables } from '../fixtures/shop-api/generated/schema.js'
import { POSTGRES_OFF, POSTGRES_URL } from '../support/test-postgres.js'

// prepare() runs its advisory lock, CREATE SCHEMA and CREATE TABLEs in one transaction;
// many storages preparing one empty schema at once must serialise on that lock.
describe.skipIf(POSTGRES_OFF)('PostgreSQL: concurrent prepare() on one empty schema', () => {
  const schema = `restmint_transaction_prepare_${randomBytes(4).toString('hex')}`
  const storages: Storage[] = []
  afterAll(async () => {
    for (const storage of storages) await storage.close()
    const client = new pg.Client(POSTGRES_URL)
    await client.connect()
    await client.query(`drop schema if exists "${schema}" cascade`)
    await client.end()
  })

  it('16 storages prepare one empty schema together', async () => {
    for (let i = 0; i < 16; i++) storages.push(createStorage(POSTGRES_URL, allTables, { schema, pool: { size: 1 } }))
    const outcomes = await Promise.allSettled(storages.map((storage) => storage.prepare()))
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([])
    for (const table of allTables) {
      expect((await storages[5]!.list(table, { rowFilter: {}, limit: 1 })).rows).toEqual([])
    }
  })
})
