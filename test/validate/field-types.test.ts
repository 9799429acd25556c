import { describe, expect, it } from 'vitest'
import { diagnose, withResources } from './diagnose.js'

/**
 * The rules of decimal, json and array fields beyond the golden case
 * (test/cases/field-types-bad): what passes, and the checks that reuse a
 * field's own (RANGE, ENUM_TYPE on an array's items; DEFAULT_TYPE on a decimal).
 */
const codes = (text: string) => diagnose(withResources(text)).map(({ code, line, col }) => `${code} ${line}:${col}`)

describe('decimal, json and array fields', () => {
  it('accepts them with their options', () => {
    expect(
      codes(`  products:
    fields:
      price: { type: decimal, precision: 10, scale: 2, default: "-0.50" }
      whole: { type: decimal, precision: 38 }
      settings: { type: json, nullable: true, schema: { type: object, properties: { site: { type: string, format: uri } } } }
      anything: { type: json }
      labels: { type: array, items: { type: string, enum: [a, b], max_length: 1 }, max_items: 0 }
    filter:
      price: [eq, in, gte]
      settings: ["null"]
`),
    ).toEqual([])
  })

  it("checks an array's items as a field: options of their type, enum values that fit", () => {
    expect(
      codes(`  products:
    fields:
      counts: { type: array, items: { type: integer, max_length: 3, enum: [1, "two"] } }
`),
    ).toEqual(['RANGE 9:54', 'ENUM_TYPE 9:79'])
  })

  it('checks a decimal default against its digits', () => {
    expect(
      codes(`  products:
    fields:
      price: { type: decimal, precision: 4, scale: 2, default: 1.5 }
      cost: { type: decimal, precision: 4, scale: 2, default: "1.555" }
`),
    ).toEqual(['DEFAULT_TYPE 9:64', 'DEFAULT_TYPE 10:63'])
  })

  it('refuses a json schema with a format the validators do not know', () => {
    const found = diagnose(
      withResources(`  products:
    fields:
      data: { type: json, schema: { type: string, format: colour } }
`),
    )
    expect(found.map(({ code }) => code)).toEqual(['JSON_SCHEMA'])
    expect(found[0]!.message).toContain('unknown format "colour"')
  })
})
