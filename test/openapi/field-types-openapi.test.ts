import { readFileSync } from 'node:fs'
import { validate, compileErrors } from '@readme/openapi-parser'
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core'
import { Json } from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'
import { describe, expect, it } from 'vitest'

/**
 * The OpenAPI document of decimal, json and array fields (issue 17, "Types"):
 * decimals are `type: string, format: decimal` with their digits' pattern, a
 * json field's schema is a component of its own that records and bodies
 * reference, arrays keep their items and maxItems; and the document is valid.
 */
const document = JSON.parse(
  readFileSync(new URL('../fixtures/field-types-api/generated/v1/openapi.json', import.meta.url), 'utf8'),
) as {
  components: {
    schemas: Record<string, { properties: Record<string, unknown> }>
    requestBodies: Record<
      string,
      { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } }
    >
  }
}

describe('OpenAPI of decimal, json and array fields', () => {
  it('shows decimals as strings of format decimal, with their digits', () => {
    expect(document.components.schemas.Product!.properties.price).toEqual({
      type: 'string',
      format: 'decimal',
      pattern: '^-?0*\\d{1,17}(\\.\\d{1,2})?$',
    })
  })

  it('inlines a json schema once, as a component the record and the bodies refer to', () => {
    const reference = { anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/ProductSettingsDocument' }] }
    expect(document.components.schemas.Product!.properties.settings).toEqual(reference)
    expect(document.components.schemas.ProductUpdate!.properties.settings).toEqual(reference)
    expect(
      document.components.requestBodies.ProductCreate!.content['application/json'].schema.properties.settings,
    ).toEqual(reference)
    expect(document.components.schemas.ProductSettingsDocument).toMatchObject({ required: ['pinned'] })
  })

  it('keeps an array field items and maxItems', () => {
    expect(document.components.schemas.Product!.properties.labels).toEqual({
      type: ['array', 'null'],
      items: { type: 'string', maxLength: 30 },
      maxItems: 3,
    })
  })

  it('is valid OpenAPI 3.1, with no Spectral error', async () => {
    const result = await validate(JSON.parse(JSON.stringify(document)))
    expect(result.valid ? '' : compileErrors(result)).toBe('')
    const spectral = new Spectral()
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] })
    const results = await spectral.run(new Document(JSON.stringify(document, null, 2), Json))
    expect(results.filter((result) => result.severity === 0).map((result) => result.code)).toEqual([])
  })
})
