import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { buildModel } from '../../generator/model/build-model.js'
import { sampleRecords } from '../../generator/render/build-migration-guide-view.js'
import { templateHelpers } from '../../generator/render/template-helpers.js'
import { validateManifest } from '../../generator/validate/validate-manifest.js'
import type { Row } from '../../runtime/contract/table-definition.js'

/**
 * Issue 9: the migration guide's sample records are what the served versions
 * answer. The guide builds each version's record from one stored row with the
 * field mapping its translate module is rendered from; here that row goes
 * through the committed translate module itself, and the committed guide shows
 * both records. (Every change kind's table: the versions-changes-good case.)
 */
const root = join(import.meta.dirname, '../..')
const projects = [
  { name: 'the example', directory: root, resource: 'posts' },
  { name: 'versioned-api', directory: join(root, 'test/fixtures/versioned-api'), resource: 'comments' },
]

function loadModel(directory: string) {
  const { manifest, diagnostics } = validateManifest(
    loadManifest('resources.yaml', readFileSync(join(directory, 'resources.yaml'), 'utf8')),
  )
  expect(diagnostics.filter((diagnostic) => diagnostic.severity === 'error')).toEqual([])
  return buildModel(manifest!, 'resources.yaml')
}

describe('migration guide samples', () => {
  for (const { name, directory, resource } of projects) {
    it(`${name}: the v1 record is what v1's generated translation makes of the stored row`, async () => {
      const model = loadModel(directory)
      const [v1, v2] = model.versions
      const sample = sampleRecords(model, v1!, v2!, resource)!
      const translate = (await import(join(directory, 'generated/v1/translate', `${resource}.ts`))) as {
        rowToVersion(row: Row): Row
      }
      expect(translate.rowToVersion(sample.row)).toEqual(sample.older)
      expect(sample.newer).toEqual(sample.row)
      expect(Object.keys(sample.older)).not.toEqual(Object.keys(sample.newer))
      const guide = readFileSync(join(directory, 'generated/docs/migrate-v1-to-v2.md'), 'utf8')
      expect(guide).toContain(JSON.stringify({ data: sample.older }, null, 2))
      expect(guide).toContain(JSON.stringify({ data: sample.newer }, null, 2))
    })
  }
})

describe('guide text helpers', () => {
  it('escapes a why for Markdown and for HTML', () => {
    const why = 'a | b *c* [d](e) <script> snake_case _x_'
    expect(templateHelpers.markdown(why)).toBe('a \\| b \\*c\\* \\[d\\](e) \\<script\\> snake_case \\_x\\_')
    expect(templateHelpers.html(why)).toBe('a | b *c* [d](e) &lt;script&gt; snake_case _x_')
    expect(templateHelpers.markdownCode('/v1/posts?filter[a|b]=')).toBe('`/v1/posts?filter[a\\|b]=`')
    expect(templateHelpers.markdownBlock('```', 'json')).toBe('````json\n```\n````')
  })
})
