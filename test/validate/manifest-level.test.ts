import { describe, expect, it } from 'vitest'
import { codesAt, diagnose } from './diagnose.js'

function manifest({ limits = '', versions = '  v1: {}\n' }: { limits?: string; versions?: string }): string {
  return `restmint: 1\nservice:\n  title: Test\n${limits === '' ? '' : `limits:\n${limits}`}versions:\n${versions}resources:\n  orders: {}\n`
}

describe('VERSION_NAME', () => {
  it.each([
    ['V1', 'did you mean "v1"?'],
    ['1', 'did you mean "v1"?'],
    ['version2', 'did you mean "v2"?'],
    ['v01', 'did you mean "v1"?'],
    ['v0', 'version "v0" must be named v<major> (v1, v2, ...): it becomes the path prefix of every route'],
    ['beta', 'must be named v<major>'],
  ])('rejects %j at the key', (name, message) => {
    const found = diagnose(manifest({ versions: `  ${JSON.stringify(name)}: {}\n` }))
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['VERSION_NAME 5:3'])
    expect(found[0]?.message).toContain(message)
  })

  it('accepts v1 and v12 together', () => {
    const v12 = '  v12:\n    changes:\n      - remove_resource: { resource: coupons, was: {} }\n        why: gone\n'
    expect(codesAt(manifest({ versions: `  v1: {}\n${v12}` }))).toEqual([])
  })
})

describe('LIMITS_RANGE', () => {
  it('rejects a default page size above the maximum, at the default', () => {
    const found = diagnose(manifest({ limits: '  per_page_default: 50\n  per_page_max: 10\n' }))
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['LIMITS_RANGE 5:21'])
    expect(found[0]?.message).toBe('per_page_default 50 is greater than per_page_max 10; it must be at most 10')
  })

  it('counts the default per_page_default of 20', () => {
    const found = diagnose(manifest({ limits: '  per_page_max: 10\n' }))
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['LIMITS_RANGE 5:17'])
    expect(found[0]?.message).toContain('also set per_page_default to at most 10')
  })

  it('rejects include_items_max above per_page_max, at include_items_max (issue 6, item 11)', () => {
    const found = diagnose(manifest({ limits: '  per_page_max: 30\n  include_items_max: 31\n' }))
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['LIMITS_RANGE 6:22'])
    expect(found[0]?.message).toContain('include_items_max 31 is greater than per_page_max 30; it must be at most 30')
    expect(codesAt(manifest({ limits: '  include_items_max: 101\n' }))).toEqual(['LIMITS_RANGE 5:22'])
  })

  it.each([
    '  per_page_default: 10\n  per_page_max: 10\n',
    '  per_page_max: 20\n',
    '  per_page_default: 100\n',
    // The default include_items_max (50) follows a smaller per_page_max.
    '  per_page_default: 10\n  per_page_max: 10\n  include_max: 1\n',
    '  include_items_max: 100\n',
  ])('accepts %j', (limits) => {
    expect(codesAt(manifest({ limits }))).toEqual([])
  })
})

describe('collecting every problem', () => {
  it('reports all problems of a manifest, from every stage, sorted by position', () => {
    const text = [
      'restmint: 1',
      'service:',
      '  title: Test',
      'versions:',
      '  V1: {}',
      'resources:',
      '  author:',
      '    fields:',
      '      name: { type: string, requird: true }',
      '  create-orders: {}',
      '  items:',
      '    parent: order',
      '    fields:',
      '      id: { type: integer, default: x }',
      '',
    ].join('\n')
    expect(codesAt(text)).toEqual([
      'VERSION_NAME 5:3',
      'NAMING_PLURAL 7:3',
      'UNKNOWN_KEY 9:29',
      'NAMING_NO_VERBS 10:3',
      'PARENT_UNKNOWN 12:13',
      'FIELD_RESERVED 14:7',
      'DEFAULT_TYPE 14:37',
    ])
  })
})
