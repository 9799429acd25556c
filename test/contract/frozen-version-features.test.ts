import { beforeAll, describe, expect, it } from 'vitest'
import { versionDocumentPath } from '../../generator/contract/version-documents.js'
import { serveManifestApi } from '../migrate/load-manifest-api.js'
import { DIALECTS } from '../support/test-storage.js'
import { checkContracts, projectWith, renderContracts } from './check-contracts.js'

/**
 * A frozen v1 and what issue 17 lets v2 add to a resource: `aggregate:`
 * (a path) and `soft_delete: true` (`deleted_at`, `?deleted=`, restorations).
 * `check` names `add_aggregate` / `add_soft_delete` for them; once declared,
 * v1 has none of it, and a DELETE through v1 soft-deletes underneath (one
 * storage): the record is gone for v1, deleted for v2.
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
      kind: { type: string, default: plain }
`
const WITH_FEATURES = PUBLISHED_STATE.replace(
  '  notes:\n',
  '  notes:\n    soft_delete: true\n    aggregate: { group_by: [kind] }\n',
)
const DECLARED = WITH_FEATURES.replace(
  '        why: body is what the editor calls it\n',
  `        why: body is what the editor calls it
      - add_aggregate: { resource: notes }
        why: notes are counted by kind
      - add_soft_delete: { resource: notes }
        why: deleted notes can be restored
`,
)

let published: string
beforeAll(async () => {
  published = (await renderContracts(projectWith(PUBLISHED_STATE))).files.get(versionDocumentPath('v1'))!
})

describe('check on a frozen version, when the newer one adds aggregates and soft delete', () => {
  it('names add_aggregate and add_soft_delete, never add_resource', async () => {
    const { exitCode, report } = await checkContracts(WITH_FEATURES, published)
    expect(exitCode, report).toBe(1)
    const lines = report.split('\n').filter((line) => line.includes('v1 is frozen: '))
    expect(lines).toContain(
      'published/v1.openapi.json: v1 is frozen: PATH_ADDED: /v1/notes/aggregates: (absent) → /v1/notes/aggregates; declare `add_aggregate: { resource: notes }` in versions.v2.changes so v1 leaves it out, or undo it',
    )
    expect(
      lines.some((line) => line.includes('/restorations') && line.includes('`add_soft_delete: { resource: notes }`')),
    ).toBe(true)
    expect(
      lines.some((line) => line.includes('deleted_at') && line.includes('`add_soft_delete: { resource: notes }`')),
    ).toBe(true)
    expect(lines.filter((line) => !line.includes('add_aggregate') && !line.includes('add_soft_delete'))).toEqual([])
  })

  it('passes once v2 declares them', async () => {
    const { exitCode, report } = await checkContracts(DECLARED, published)
    expect(report).toContain('published/v1.openapi.json matches what resources.yaml generates for v1.')
    expect(exitCode, report).toBe(0)
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: a frozen v1 that predates aggregates and soft delete`, () => {
    const call = serveManifestApi(DECLARED, dialect)

    it('v1 has no deleted_at, ?deleted=, restorations nor aggregates; its DELETE soft-deletes underneath', async () => {
      const created = await call({ method: 'POST', url: '/v1/notes', payload: { text: 'Hi' } })
      expect(created.status).toBe(201)
      const id = created.body.data.id
      expect(created.body.data).not.toHaveProperty('deleted_at')
      expect((await call({ method: 'GET', url: '/v1/notes?deleted=include' })).status).toBe(400)
      // No aggregates route: the path is the item route's, with an id that is none.
      expect((await call({ method: 'GET', url: '/v1/notes/aggregates' })).status).toBe(400)
      expect((await call({ method: 'GET', url: '/v2/notes/aggregates?group_by=kind' })).body.data).toEqual([
        { kind: 'plain', count: 1 },
      ])

      expect((await call({ method: 'DELETE', url: `/v1/notes/${id}` })).status).toBe(204)
      expect((await call({ method: 'GET', url: `/v1/notes/${id}` })).status).toBe(404)
      const restore = await call({ method: 'POST', url: `/v1/notes/${id}/restorations` })
      expect(restore.status, JSON.stringify(restore.body)).toBe(404)
      const deleted = await call({ method: 'GET', url: `/v2/notes/${id}?deleted=include` })
      expect(deleted.status).toBe(200)
      expect(deleted.body.data.deleted_at).toEqual(expect.any(String))
      expect((await call({ method: 'POST', url: `/v2/notes/${id}/restorations` })).status).toBe(200)
      expect(Object.keys((await call({ method: 'GET', url: `/v1/notes/${id}` })).body.data).sort()).toEqual([
        'created_at',
        'id',
        'kind',
        'text',
        'updated_at',
      ])
    })
  })
}
