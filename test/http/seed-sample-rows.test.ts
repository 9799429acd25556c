/**
 * Issue 18, item 9: `--seed` wrote rows the manifest refuses (`tag color 1`
 * for a `pattern` of `^#[0-9a-f]{6}$`; a PUT of the same values was 400).
 * Every seeded row must pass the resource's own body validator, which a PUT
 * of its writable fields goes through; and seeding happens only on an empty
 * database.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { injectJson } from '../support/inject-json.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { loadManifestApi } from '../migrate/load-manifest-api.js'
import { manifestOf } from '../migrate/storage-of.js'

const MANIFEST = manifestOf(`  tags:
    fields:
      label: { type: string, required: true, min_length: 3, max_length: 8, unique: true }
      color: { type: string, required: true, pattern: "^#[0-9a-f]{6}$", unique: true }
      code: { type: string, pattern: "^[A-Z]{2}-[0-9]{3}$", max_length: 6 }
      contact: { type: string, format: email, pattern: "@example\\\\.org$" }
      homepage: { type: string, format: uri }
      ref: { type: string, format: uuid }
      weight: { type: number, minimum: 100.5, maximum: 101 }
      rank: { type: integer, minimum: -20, maximum: -10, unique: true }
      level: { type: integer, minimum: 5, maximum: 9, default: 7 }
      kind: { type: string, enum: [warm, cold], default: cold }
      size: { type: integer, enum: [40, 42] }
  notes:
    fields:
      body: { type: string, required: true, min_length: 30 }
    relations:
      tag: { resource: tags }
`)

describe.each(DIALECTS)('%s: --seed', (dialect) => {
  let storage: TestStorage | undefined
  let app: FastifyInstance | undefined
  afterEach(async () => {
    await app?.close()
    app = undefined
    await storage?.dispose()
    storage = undefined
  })

  async function start(): Promise<FastifyInstance> {
    const api = await loadManifestApi(MANIFEST)
    storage = await openTestStorage(dialect, api.tables)
    return (app = await api.buildServer({ storage: storage.storage, docs: false, seed: true }))
  }

  it('writes rows that pass the body validator: a PUT of each seeded row is 200 and changes nothing', async () => {
    const server = await start()
    for (const resource of ['tags', 'notes']) {
      const { status, body } = await injectJson(server, { method: 'GET', url: `/v1/${resource}` })
      expect(status).toBe(200)
      expect(body.data, JSON.stringify(body.data)).toHaveLength(3)
      for (const record of body.data as Record<string, unknown>[]) {
        const { id, created_at, updated_at, ...fields } = record
        const put = await injectJson(server, { method: 'PUT', url: `/v1/${resource}/${id}`, payload: fields })
        expect(put.status, JSON.stringify({ record, problem: put.body })).toBe(200)
        expect(put.body.data).toMatchObject(fields)
      }
    }
    const tags = (await injectJson(server, { method: 'GET', url: '/v1/tags' })).body.data
    expect(tags.map((tag: { color: string }) => tag.color)).toEqual([
      expect.stringMatching(/^#[0-9a-f]{6}$/),
      expect.stringMatching(/^#[0-9a-f]{6}$/),
      expect.stringMatching(/^#[0-9a-f]{6}$/),
    ])
  })

  it('seeds only an empty database: with a row in one table, no table is seeded', async () => {
    const api = await loadManifestApi(MANIFEST)
    const opened = (storage = await openTestStorage(dialect, api.tables))
    await opened.storage.prepare()
    const notes = api.tables.find((table) => table.name === 'notes')!
    await opened.storage.insert(notes, { body: 'a real note, written before the server started' })
    app = await api.buildServer({ storage: opened.storage, docs: false, seed: true })
    expect((await injectJson(app, { method: 'GET', url: '/v1/tags' })).body.data).toEqual([])
    expect((await injectJson(app, { method: 'GET', url: '/v1/notes' })).body.meta.total).toBe(1)
  })
})
