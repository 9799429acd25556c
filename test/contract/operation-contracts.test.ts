import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareContracts } from '../../generator/contract/compare-contracts.js'
import { formatFinding } from '../../generator/contract/contract-finding.js'
import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { buildModel } from '../../generator/model/build-model.js'
import { buildOpenApiDocument } from '../../generator/render/openapi-document.js'
import { shareQueryParameters } from '../../generator/render/share-query-parameters.js'
import { validateManifest } from '../../generator/validate/validate-manifest.js'

/**
 * Issue 16, section 3: custom operations are under the breaking-change gate
 * like generated ones, with the same rule IDs. The operations-api fixture's
 * manifest is the published contract; each case edits it and compares the
 * newest version's documents as `restmint check` does.
 */
const fixture = join(import.meta.dirname, '../fixtures/operations-api/resources.yaml')
const manifest = readFileSync(fixture, 'utf8')

function documentOf(text: string): object {
  const validated = validateManifest(loadManifest('resources.yaml', text))
  expect(validated.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')).toEqual([])
  const model = buildModel(validated.manifest!, 'resources.yaml', validated.versions!)
  const version = model.versions.at(-1)!
  return shareQueryParameters(buildOpenApiDocument({ ...model, resources: version.resources }, version), model)
}

const findingsAfter = (edit: (text: string) => string): string[] =>
  compareContracts(documentOf(manifest), documentOf(edit(manifest)))
    .filter((finding) => finding.severity === 'breaking')
    .map(formatFinding)

describe('the breaking-change gate on custom operations', () => {
  it('finds nothing when nothing changed', () => {
    expect(findingsAfter((text) => text)).toEqual([])
  })

  it('breaks on a removed operation (PATH_REMOVED)', () => {
    const findings = findingsAfter((text) =>
      text.replace(
        / {6}sales-by-month:\n(?: {8}.*\n)+/,
        '      totals: { method: GET, responds: { fields: { total: { type: number } } } }\n',
      ),
    )
    expect(findings).toEqual([expect.stringContaining('PATH_REMOVED: /v2/reports/sales-by-month')])
  })

  it('breaks on a required body field added (REQUEST_FIELD_REQUIRED_ADDED)', () => {
    const findings = findingsAfter((text) =>
      text.replace(
        'body: { reason: { type: string, required: true, max_length: 500 } }',
        'body: { reason: { type: string, required: true, max_length: 500 }, refund: { type: boolean, required: true } }',
      ),
    )
    expect(findings).toEqual([
      expect.stringContaining('REQUEST_FIELD_REQUIRED_ADDED: POST /v2/orders/{order_id}/cancellations'),
    ])
  })

  it('breaks on a query parameter made required, but not on an optional one added', () => {
    const optional = findingsAfter((text) => text.replace('query: { year:', 'query: { region: { type: string }, year:'))
    expect(optional).toEqual([])
    const required = findingsAfter((text) =>
      text.replace('query: { year:', 'query: { region: { type: string, required: true }, year:'),
    )
    expect(required).toEqual([
      expect.stringContaining('REQUEST_PARAMETER_REQUIRED_ADDED: GET /v2/reports/sales-by-month'),
    ])
  })
})
