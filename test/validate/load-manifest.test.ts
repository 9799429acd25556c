import { describe, expect, it } from 'vitest'
import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { codesAt, diagnose, withResources } from './diagnose.js'

describe('loadManifest', () => {
  it('parses valid YAML into data with positions kept', () => {
    const loaded = loadManifest('resources.yaml', 'restmint: 1\nresources:\n  orders: {}\n')
    expect(loaded.diagnostics).toEqual([])
    expect(loaded.data).toEqual({ restmint: 1, resources: { orders: {} } })
    expect(loaded.file).toBe('resources.yaml')
    expect(loaded.lineCounter.linePos(14)).toEqual({ line: 2, col: 3 })
  })

  it('reports a syntax error with its position and no data', () => {
    const loaded = loadManifest('resources.yaml', 'restmint: 1\nresources: [orders\n')
    expect(loaded.data).toBeUndefined()
    expect(loaded.diagnostics.map((diagnostic) => diagnostic.code)).toContain('YAML_SYNTAX')
  })

  it('reports a second document', () => {
    const found = diagnose('restmint: 1\n---\nresources: {}\n')
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['YAML_SYNTAX 2:1'])
    expect(found[0]?.message).toContain('a manifest is a single YAML document')
  })

  it('reports a duplicate key over the whole key, naming the first one, and keeps the data', () => {
    const text = 'restmint: 1\nservice:\n  title: A\n  title: B\nversions:\n  v1: {}\nresources:\n  orders: {}\n'
    const loaded = loadManifest('resources.yaml', text)
    expect(loaded.data).toMatchObject({ service: { title: 'B' } })
    const found = diagnose(text)
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['YAML_DUPLICATE_KEY 4:3'])
    expect(found[0]?.message).toContain('duplicate key "title" (first at line 3)')
    expect(found[0]?.diagnostic.end).toBe(text.indexOf('title: B') + 'title'.length)
  })

  it('finds duplicate keys among 40,000 keys of one map in linear time, and validates the whole manifest', () => {
    // At 80,000 keys yaml's uniqueKeys check took 78 s here, and looking up each field's position as long
    // again: quadratic, that is 20 s twice at 40,000, past the test's timeout; linear, it is about 2 s.
    const fields = Array.from({ length: 40_000 }, (_, index) => `      field_${index}: { type: string }`)
    fields.splice(25_000, 0, '      field_7: { type: integer }')
    fields.push('      field_39999: { type: string }')
    const text = withResources(`  orders:\n    fields:\n${fields.join('\n')}\n`)
    expect(text.length).toBeGreaterThan(1_200_000)
    const found = diagnose(text)
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual([
      `YAML_DUPLICATE_KEY ${9 + 25_000}:7`,
      `YAML_DUPLICATE_KEY ${9 + 40_001}:7`,
    ])
    expect(found[0]?.message).toContain('duplicate key "field_7" (first at line 16)')
    expect(found[1]?.message).toContain('duplicate key "field_39999" (first at line 40009)')
  })

  it('reports duplicate keys together with the other problems', () => {
    const text = 'restmint: 1\nservice:\n  title: Test\nversions:\n  v1: {}\nresources:\n  author: {}\n  author: {}\n'
    expect(codesAt(text)).toEqual(['YAML_DUPLICATE_KEY 8:3', 'NAMING_PLURAL 8:3'])
  })

  it('stops at syntax errors: no schema or naming noise from a half-parsed document', () => {
    const text = 'restmint: 1\nservice:\n  title: Test\n   bad: indent\nversions:\n  V1: {}\nresources:\n  author: {}\n'
    expect(new Set(diagnose(text).map(({ code }) => code))).toEqual(new Set(['YAML_SYNTAX']))
  })

  it('reports an alias bomb instead of expanding it', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let index = 1; index < 8; index++) {
      const previous = `*a${index - 1}`
      lines.push(`a${index}: &a${index} [${Array.from({ length: 10 }, () => previous).join(', ')}]`)
    }
    const loaded = loadManifest('resources.yaml', `${lines.join('\n')}\n`)
    expect(loaded.data).toBeUndefined()
    expect(loaded.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['YAML_SYNTAX'])
  })

  it('merges `<<: *anchor` keys and checks the merged options', () => {
    const text = [
      'restmint: 1',
      'service:',
      '  title: Test',
      'versions:',
      '  v1: {}',
      'resources:',
      '  orders:',
      '    fields:',
      '      name: &text { type: string, max_length: 100 }',
      '      note: { <<: *text, nullable: true, minimum: 1 }',
      '',
    ].join('\n')
    expect(loadManifest('resources.yaml', text).data).toMatchObject({
      resources: { orders: { fields: { note: { type: 'string', max_length: 100, nullable: true } } } },
    })
    expect(codesAt(text)).toEqual(['RANGE 10:42'])
  })

  it('turns yaml warnings into warnings', () => {
    const loaded = loadManifest('resources.yaml', 'restmint: !custom 1\n')
    expect(loaded.diagnostics.map(({ code, severity }) => `${code} ${severity}`)).toEqual(['YAML_SYNTAX warning'])
  })
})
