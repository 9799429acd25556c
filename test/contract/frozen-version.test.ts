import { beforeAll, describe, expect, it } from 'vitest'
import { versionDocumentPath } from '../../generator/contract/version-documents.js'
import { serveManifestApi } from '../migrate/load-manifest-api.js'
import { DIALECTS } from '../support/test-storage.js'
import { checkContracts, projectWith, renderContracts } from './check-contracts.js'

/**
 * Issue 18, item 2: a deprecated version declared `frozen: true` serves
 * exactly its published contract. What v2 adds reaches v1 only until v2
 * declares it (`add_field`, `add_resource`), and `check` fails until then;
 * once declared, v1 neither shows nor takes it, and its creates store the default.
 */
const PUBLISHED_STATE = `restmint: 1
service: { title: Notes }
versions:
  v1: { deprecated: 2027-01-15, frozen: true }
  v2:
    changes:
      - rename_field: { resource: notes, from: text, to: body }
        why: body is what the editor calls it
resources:
  notes:
    fields:
      body: { type: string, required: true }
`
const ADDITIONS = `      tag: { type: string, default: none }
  labels:
    fields:
      name: { type: string, required: true }
`
const WITH_ADDITIONS = `${PUBLISHED_STATE}${ADDITIONS}`
const DECLARED = WITH_ADDITIONS.replace(
  '        why: body is what the editor calls it\n',
  `        why: body is what the editor calls it
      - add_field: { resource: notes, field: tag }
        why: notes are tagged
      - add_resource: { resource: labels }
        why: labels group notes
`,
)

let published: string
beforeAll(async () => {
  published = (await renderContracts(projectWith(PUBLISHED_STATE))).files.get(versionDocumentPath('v1'))!
})

describe('check on a frozen version', () => {
  it('fails on what a newer version adds to it, naming the declaration that keeps it out', async () => {
    const { exitCode, report } = await checkContracts(WITH_ADDITIONS, published)
    expect(exitCode, report).toBe(1)
    const lines = report.split('\n').filter((line) => line.includes('v1 is frozen: '))
    expect(lines).toContain(
      'published/v1.openapi.json: v1 is frozen: RESPONSE_FIELD_ADDED: GET /v1/notes: response field data[].tag: (absent) → tag (string); declare `add_field: { resource: notes, field: tag }` in versions.v2.changes so v1 leaves it out, or undo it',
    )
    expect(lines).toContain(
      'published/v1.openapi.json: v1 is frozen: PATH_ADDED: /v1/labels: (absent) → /v1/labels; declare `add_resource: { resource: labels }` in versions.v2.changes so v1 leaves it out, or undo it',
    )
    expect(lines.every((line) => line.includes('add_field') || line.includes('add_resource'))).toBe(true)
  })

  it('passes once the newer version declares the additions', async () => {
    const { exitCode, report } = await checkContracts(DECLARED, published)
    expect(report).toContain('published/v1.openapi.json matches what resources.yaml generates for v1.')
    expect(exitCode, report).toBe(0)
  })

  it('fails for a frozen version that was never published', async () => {
    const { exitCode, report } = await checkContracts(PUBLISHED_STATE, null)
    expect(exitCode).toBe(1)
    expect(report).toContain(
      'published/v1.openapi.json: v1 is frozen, so it serves exactly its published contract, but it has none; run `restmint publish v1`, or remove "frozen"',
    )
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: a frozen v1 over the database v2 adds to`, () => {
    const call = serveManifestApi(DECLARED, dialect)

    it('hides the new field on read and stores its default on create', async () => {
      const created = await call({ method: 'POST', url: '/v1/notes', payload: { text: 'Hi' } })
      expect(created.status).toBe(201)
      expect(created.body.data).not.toHaveProperty('tag')
      const id = created.body.data.id
      expect((await call({ method: 'GET', url: `/v2/notes/${id}` })).body.data).toMatchObject({
        body: 'Hi',
        tag: 'none',
      })
      const tagged = await call({ method: 'POST', url: '/v2/notes', payload: { body: 'Yo', tag: 'work' } })
      const onV1 = await call({ method: 'GET', url: `/v1/notes/${tagged.body.data.id}` })
      expect(Object.keys(onV1.body.data).sort()).toEqual(['created_at', 'id', 'text', 'updated_at'])
      const refused = await call({ method: 'POST', url: '/v1/notes', payload: { text: 'Hi', tag: 'work' } })
      expect(refused.status).toBe(400)
      expect((await call({ method: 'GET', url: '/v1/notes?sort=tag' })).status).toBe(400)
    })

    it('serves the new resource in v2 only', async () => {
      expect((await call({ method: 'POST', url: '/v2/labels', payload: { name: 'work' } })).status).toBe(201)
      expect((await call({ method: 'GET', url: '/v1/labels' })).status).toBe(404)
    })
  })
}
