import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as prettier from 'prettier'
import { describe, expect, it } from 'vitest'
import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { buildModel } from '../../generator/model/build-model.js'
import { createContentCache, findCacheDirectory, hashKey } from '../../generator/emit/content-cache.js'
import { formatJson } from '../../generator/render/format-json.js'
import { PRETTIER_OPTIONS, PRETTIER_VERSION, TYPESCRIPT_PARSER } from '../../generator/render/format-source.js'
import { renderProject } from '../../generator/render/render-project.js'
import { validateManifest } from '../../generator/validate/validate-manifest.js'

const casesDirectory = join(import.meta.dirname, '../cases')
const NO_CACHE = { read: () => null, write: () => {}, pathOf: () => null }

// prettier's output is a pure function of its version, options, parser and source: kept in the content cache
// under the key generate uses (format-files.ts), so only sources or a prettier that changed are formatted again.
const cache = createContentCache(findCacheDirectory(join(import.meta.dirname, '../..')))
async function formatCached(source: string, parser: string, options = PRETTIER_OPTIONS): Promise<string> {
  const key = hashKey('prettier', PRETTIER_VERSION, parser, JSON.stringify(options), source)
  const cached = cache.read(key)
  if (cached !== null) return cached
  const formatted = await prettier.format(source, { ...options, parser })
  cache.write(key, formatted)
  return formatted
}

describe('formatting', () => {
  it('leaves YAML as yaml.stringify writes it because prettier would not change it', async () => {
    const yaml = readFileSync(join(import.meta.dirname, '../cases/relations-good/expected/v1/openapi.yaml'), 'utf8')
    expect(await formatCached(yaml, 'yaml', { printWidth: 100 })).toBe(yaml)
  })
})

describe('TypeScript formatting', () => {
  it.each(readdirSync(casesDirectory).filter((name) => name.endsWith('-good')))(
    'prints the TypeScript of %s from babel-ts exactly as from the typescript parser',
    async (name) => {
      const manifestFile = join(casesDirectory, name, 'resources.yaml')
      const { manifest } = validateManifest(loadManifest(manifestFile, readFileSync(manifestFile, 'utf8')))
      const files = renderProject(buildModel(manifest!, 'resources.yaml'), NO_CACHE)
      const typescript = [...files].filter(([path]) => path.endsWith('.ts'))
      expect(typescript.length).toBeGreaterThan(0)
      for (const [path, source] of typescript) {
        expect(await formatCached(source, TYPESCRIPT_PARSER), path).toBe(await formatCached(source, 'typescript'))
      }
    },
  )
})

describe('formatJson', () => {
  const prettierJson = (source: string) => formatCached(source, 'json')

  it.each([
    ['the committed OpenAPI document', join(import.meta.dirname, '../../generated/v1/openapi.json')],
    ['the relations case', join(import.meta.dirname, '../cases/relations-good/expected/v1/openapi.json')],
    ['the manifest schema', join(import.meta.dirname, '../../manifest.schema.json')],
  ])('lays out %s exactly as prettier does', async (_, file) => {
    const source = JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))
    expect(formatJson(source, 100)).toBe(await prettierJson(source))
  })

  it('matches prettier on the edges: empty, nested, exactly full and wide-character lines', async () => {
    for (const value of [
      {
        a: [],
        b: {},
        ['k'.repeat(120)]: {},
        c: [
          [1, 2],
          [3, 'x'.repeat(95)],
        ],
        d: 'é'.repeat(50),
      },
      { nested: { deep: { list: ['a'.repeat(20), 'b'.repeat(20), 'c'.repeat(20), 'd'.repeat(20)] } } },
      { mixed: [1, 'a', null, true, { x: 1 }], exact: 'y'.repeat(86), barely: 'z'.repeat(87) },
      { wide: ['日本語'.repeat(10), 'x'], emoji: '😀'.repeat(30), escapes: '\u2028\u0000"\\' },
      [{ a: 1 }, [], {}, null],
      'scalar',
    ]) {
      const source = JSON.stringify(value)
      expect(formatJson(source, 100), source).toBe(await prettierJson(source))
    }
  })

  it('leaves a long list of numbers, which prettier fills, to prettier', () => {
    expect(
      formatJson(JSON.stringify({ numbers: Array.from({ length: 40 }, (_, index) => index * 1000) }), 100),
    ).toBeNull()
  })
})
