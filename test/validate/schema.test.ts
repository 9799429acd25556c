import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import formatsModule from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { DEFAULT_LIMITS } from '../../runtime/contract/api-limits.js'
import { COUNT_STRATEGIES, DEFAULT_COUNT_STRATEGY } from '../../runtime/contract/count-strategy.js'
import { FIELD_TYPES, STRING_FORMATS } from '../../runtime/contract/field-type.js'
import { FILTER_OPERATORS } from '../../runtime/contract/filter-operator.js'
import { ON_DELETE_ACTIONS } from '../../runtime/contract/table-definition.js'
import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { validateManifest } from '../../generator/validate/validate-manifest.js'

const schema = JSON.parse(readFileSync(new URL('../../manifest.schema.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>

/** The normative example of issue 2, "The manifest (format 1)". */
const ISSUE_EXAMPLE = `# yaml-language-server: $schema=./manifest.schema.json
restmint: 1                      # manifest format version; required
service:
  title: Shop API                # OpenAPI info.title; required
  description: Example shop      # optional
  base_url: http://localhost:3000  # OpenAPI servers[0].url; optional
limits:                          # optional; these are the defaults
  per_page_default: 20
  per_page_max: 100
  include_max: 3                 # relations in one \`include\` (used in the next issue)
  include_depth: 2               # segments in one include path, items.product = 2 (next issue)
  body_max_bytes: 1048576        # request body limit
versions:                        # at least one; each is a path prefix /<name>; name matches v<major>
  v1: {}
resources:
  authors:                       # plural, lowercase, hyphen-separated: the collection path segment
    fields:
      name: { type: string, required: true, max_length: 200 }
      email: { type: string, format: email }
  products:
    fields:
      title: { type: string, required: true }
      price: { type: number, required: true, minimum: 0 }
      in_stock: { type: boolean, default: true }
  orders:
    fields:
      status: { type: string, enum: [pending, paid, shipped], default: pending }
      placed_on: { type: date }
  items:
    parent: orders               # sub-resource: /orders/{order_id}/items[/{item_id}], and also /items[/{id}]
    fields:
      quantity: { type: integer, required: true, minimum: 1 }
      note: { type: string, nullable: true }
`

/** Every key format 1 has, including singular and on_delete. */
const EVERY_KEY = `${ISSUE_EXAMPLE.replace('limits:', 'limits:\n  rate: { requests: 600, per: 1m }')}  adjustments:
    parent: items
    on_delete: cascade
    singular: adjustment
    concurrency: { require_if_match: true }
    rate: { requests: 60, per: 30s }
    fields:
      code: { type: string, min_length: 2, max_length: 8, pattern: "^[A-Z]+$", unique: true, default: FIX }
      amount: { type: number, minimum: -100, maximum: 100, default: 0 }
      ref: { type: string, format: uuid, nullable: true, default: null }
      link: { type: string, format: uri }
      at: { type: datetime }
concurrency: { require_if_match: false }
http:
  trust_proxy: [10.0.0.0/8, "2001:db8::/32"]
  cors: { origins: [https://app.example.com, "http://localhost:5173"], max_age: 600 }
`

function compileStrict() {
  const ajv = new Ajv({ strict: true, allErrors: true })
  formatsModule.default(ajv)
  return ajv.compile(schema)
}

/** Every object schema in the manifest schema, with its JSON path. */
function objectSchemas(node: unknown, path = '#'): [string, Record<string, unknown>][] {
  if (node === null || typeof node !== 'object') return []
  const record = node as Record<string, unknown>
  const own: [string, Record<string, unknown>][] = record.type === 'object' ? [[path, record]] : []
  return [...own, ...Object.entries(record).flatMap(([key, value]) => objectSchemas(value, `${path}/${key}`))]
}

describe('manifest.schema.json', () => {
  it('compiles in ajv strict mode', () => {
    expect(() => compileStrict()).not.toThrow()
  })

  it('accepts the example from the issue and a manifest using every key', () => {
    const validate = compileStrict()
    expect(validate(parse(ISSUE_EXAMPLE)), JSON.stringify(validate.errors)).toBe(true)
    expect(validate(parse(EVERY_KEY)), JSON.stringify(validate.errors)).toBe(true)
  })

  it('closes every object: additionalProperties is false or a schema, never open', () => {
    for (const [path, node] of objectSchemas(schema)) {
      expect(node.additionalProperties, path).not.toBeUndefined()
      expect(node.additionalProperties, path).not.toBe(true)
    }
  })

  it('gives every property a title and a description for editors', () => {
    for (const [path, node] of objectSchemas(schema)) {
      for (const [key, property] of Object.entries(
        (node.properties ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        expect(typeof property.title, `${path}/properties/${key}`).toBe('string')
        expect(typeof property.description, `${path}/properties/${key}`).toBe('string')
      }
    }
  })

  it('shows the same limit defaults the generator uses', () => {
    const limits = (schema.properties as Record<string, { properties: Record<string, { default: unknown }> }>).limits
    const defaults = Object.fromEntries(
      Object.entries(limits?.properties ?? {}).map(([key, value]) => [key, value.default]),
    )
    expect(defaults).toEqual({ ...DEFAULT_LIMITS, count: DEFAULT_COUNT_STRATEGY })
  })

  it('lists the enums of the runtime contract, in its order', () => {
    const at = (pointer: string): unknown =>
      pointer.split('/').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], schema)
    expect(at('definitions/field/properties/type/enum')).toEqual(FIELD_TYPES)
    expect(at('definitions/field/properties/format/enum')).toEqual(STRING_FORMATS)
    expect(at('definitions/resource/properties/filter/additionalProperties/items/enum')).toEqual(FILTER_OPERATORS)
    expect(at('definitions/resource/properties/on_delete/enum')).toEqual(ON_DELETE_ACTIONS)
    expect(at('definitions/relation/properties/on_delete/enum')).toEqual(ON_DELETE_ACTIONS)
    expect(at('definitions/resource/properties/count/enum')).toEqual(COUNT_STRATEGIES)
    expect(at('properties/limits/properties/count/enum')).toEqual(COUNT_STRATEGIES)
  })
})

describe('validateManifest on valid manifests', () => {
  it.each([
    ['the issue example', ISSUE_EXAMPLE],
    ['a manifest using every key', EVERY_KEY],
  ])('reports nothing for %s and returns the manifest', (_, text) => {
    const result = validateManifest(loadManifest('resources.yaml', text))
    expect(result.diagnostics).toEqual([])
    expect(result.manifest).toEqual(parse(text))
  })
})
