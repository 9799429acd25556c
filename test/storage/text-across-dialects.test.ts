import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { createStorage } from '../../runtime/storage/create-storage.js'
import { foldCase } from '../../runtime/storage/fold-case.js'
import { StorageUrlError } from '../../runtime/storage/storage-errors.js'
import type { Filter, Storage } from '../../runtime/storage/storage.js'
import { VALUE_REASONS } from '../../runtime/storage/value-codec.js'
import { openTestStorage } from '../support/test-storage.js'
import {
  column,
  createTestDatabases,
  defineTables,
  DIALECTS,
  POSTGRES_URL,
  table,
  type Dialect,
} from './storage-fixtures.js'

/**
 * Text behaves the same on SQLite and PostgreSQL (issue 6, item 12):
 * case-insensitive filters match the same rows whatever the database's
 * locale, and text that is not Unicode is refused on every path.
 */

const words = table(defineTables([{ name: 'words', columns: [column('text', 'string')] }]), 'words')

const WORDS = [
  'ÉCOLE',
  'école',
  'Ecole',
  'ÄPFEL',
  'äpfel',
  'Straße',
  'STRASSE',
  'STRAẞE',
  'ΟΔΟΣ',
  'οδός',
  'Σοφία',
  'σοφία',
  'İstanbul',
  'istanbul',
  'ISTANBUL',
  'ıslak',
  'Ωmega',
]

/** A filter value and the words it must match, on every database. */
const MATCHES: readonly [Filter['operator'], string, readonly string[]][] = [
  ['contains', 'école', ['ÉCOLE', 'école']],
  ['contains', 'ÉCOLE', ['ÉCOLE', 'école']],
  ['contains', 'cole', ['ÉCOLE', 'école', 'Ecole']],
  ['starts_with', 'äp', ['ÄPFEL', 'äpfel']],
  ['starts_with', 'ÄPF', ['ÄPFEL', 'äpfel']],
  ['contains', 'ß', ['Straße', 'STRAẞE']],
  ['contains', 'ẞ', ['Straße', 'STRAẞE']],
  ['contains', 'ss', ['STRASSE']],
  ['contains', 'οδοσ', ['ΟΔΟΣ']],
  ['contains', 'οδος', ['ΟΔΟΣ']],
  ['contains', 'ΟΔΌΣ', ['οδός']],
  ['contains', 'σ', ['ΟΔΟΣ', 'οδός', 'Σοφία', 'σοφία']],
  ['contains', 'ς', ['ΟΔΟΣ', 'οδός', 'Σοφία', 'σοφία']],
  ['starts_with', 'ΣΟΦ', ['Σοφία', 'σοφία']],
  ['starts_with', 'istanbul', ['İstanbul', 'istanbul', 'ISTANBUL']],
  ['starts_with', 'İSTANBUL', ['İstanbul', 'istanbul', 'ISTANBUL']],
  ['starts_with', 'ı', ['ıslak']],
  ['contains', 'ω', ['Ωmega']],
]

describe('case-insensitive contains and starts_with on every database', () => {
  const databases = createTestDatabases()
  const storages = new Map<Dialect, Storage>()

  beforeAll(async () => {
    for (const dialect of DIALECTS) {
      const storage = databases.newDatabase(dialect).open([words])
      await storage.prepare()
      for (const text of WORDS) await storage.insert(words, { text })
      storages.set(dialect, storage)
    }
  })
  afterAll(async () => {
    await databases.closeOpened()
    await databases.dropAll()
  })

  async function matching(dialect: Dialect, operator: Filter['operator'], value: string): Promise<string[]> {
    const { rows } = await storages.get(dialect)!.list(words, {
      rowFilter: {},
      filters: [{ column: 'text', operator, value }],
      limit: 100,
    })
    return rows.map((row) => row.text as string)
  }

  it.each(MATCHES)('%s %s matches the same words on SQLite and PostgreSQL', async (operator, value, expected) => {
    const found = await Promise.all(DIALECTS.map((dialect) => matching(dialect, operator, value)))
    expect(Object.fromEntries(DIALECTS.map((dialect, index) => [dialect, found[index]]))).toEqual(
      Object.fromEntries(DIALECTS.map((dialect) => [dialect, expected])),
    )
  })

  it('matches every word by its own folded form and by its upper case, on both databases alike', async () => {
    for (const word of WORDS) {
      for (const value of [foldCase(word), word.toUpperCase()]) {
        const [sqlite, postgres] = await Promise.all(DIALECTS.map((dialect) => matching(dialect, 'contains', value)))
        expect(postgres, `contains ${value}`).toEqual(sqlite)
        if (value === foldCase(word)) expect(sqlite, `contains ${value}`).toContain(word)
      }
    }
  })
})

describe('postgres: a server without ICU', () => {
  it('is refused at start-up, saying what the storage needs', async () => {
    const name = `restmint_no_icu_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client(POSTGRES_URL)
    await admin.connect()
    // template0 takes no connections, so copying it never waits for another session.
    await admin.query(`create database ${name} template template0`)
    try {
      const url = new URL(POSTGRES_URL)
      url.pathname = `/${name}`
      const withoutIcu = new pg.Client(url.href)
      await withoutIcu.connect()
      await withoutIcu.query('drop collation pg_catalog."und-x-icu"')
      await withoutIcu.end()
      const storage = createStorage(url.href, [words])
      const error = await storage.prepare().then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
      await storage.close()
      expect(error).toBeInstanceOf(StorageUrlError)
      expect((error as Error).message).toMatch(/no ICU collation "und-x-icu".*use a PostgreSQL built with ICU/)
    } finally {
      await admin.query(`drop database ${name}`)
      await admin.end()
    }
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: text that is not Unicode over HTTP`, () => {
    const cleanups: (() => Promise<void>)[] = []
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    })

    it('answers 400 naming the field for an unpaired surrogate in a body, and stores nothing', async () => {
      const storage = await openTestStorage(dialect)
      cleanups.push(() => storage.dispose())
      const app = await buildServer({ storage: storage.storage, docs: false })
      cleanups.push(() => app.close())
      for (const escaped of ['\\ud800', '\\udfff', 'Ada \\ud83d', '\\ude00\\ud83d']) {
        const response = await app.inject({
          method: 'POST',
          url: '/v1/authors',
          headers: { 'content-type': 'application/json' },
          payload: `{"name":"${escaped}"}`,
        })
        expect(response.statusCode).toBe(400)
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(response.json()).toMatchObject({
          status: 400,
          code: 'validation_failed',
          errors: [{ in: 'body', pointer: '/name', detail: VALUE_REASONS.surrogate }],
        })
      }
      const paired = await app.inject({
        method: 'POST',
        url: '/v1/authors',
        headers: { 'content-type': 'application/json' },
        payload: '{"name":"Ada \\ud83d\\ude00"}',
      })
      expect(paired.statusCode).toBe(201)
      expect(paired.json().data.name).toBe('Ada 😀')
      const listed = await app.inject({ method: 'GET', url: '/v1/authors' })
      expect(listed.json().meta.total).toBe(1)
    })
  })
}
