import { describe, expect, it } from 'vitest'
import { diagnose, withResources } from './diagnose.js'

/** One field, `value`, on line 9: `      value: { ... }`. */
function options(flow: string): string {
  return withResources(`  orders:\n    fields:\n      value: ${flow}\n`)
}

/** Column of the first occurrence of `needle` on the field's line. */
function colOf(flow: string, needle: string): number {
  return '      value: '.length + flow.indexOf(needle) + 1
}

describe('field option rules', () => {
  it.each([
    [
      '{ type: string, minimum: 1 }',
      'minimum',
      'RANGE',
      '"minimum" applies to integer and number fields; field "value" has type string (for lengths use min_length and max_length)',
    ],
    ['{ type: boolean, maximum: 1 }', 'maximum', 'RANGE', 'has type boolean'],
    [
      '{ type: integer, max_length: 3 }',
      'max_length',
      'RANGE',
      '"max_length" applies to string fields; field "value" has type integer',
    ],
    ['{ type: number, pattern: "^a" }', 'pattern', 'RANGE', '"pattern" applies to string fields'],
    ['{ type: date, format: email }', 'format', 'RANGE', '"format" applies to string fields'],
    [
      '{ type: integer, minimum: 5, maximum: 1 }',
      '1 }',
      'RANGE',
      'maximum 1 of field "value" is less than its minimum 5, so no value fits; swap them',
    ],
    [
      '{ type: string, min_length: 5, max_length: 2 }',
      '2 }',
      'RANGE',
      'max_length 2 of field "value" is less than its min_length 5',
    ],
    [
      '{ type: string, pattern: "[a-" }',
      '"[a-"',
      'RANGE',
      'pattern "[a-" of field "value" is not a valid regular expression (unicode mode)',
    ],
    [
      '{ type: boolean, enum: [true] }',
      'enum',
      'ENUM_TYPE',
      '"enum" applies to string, integer and number fields; field "value" has type boolean',
    ],
    [
      '{ type: string, enum: [a, 3] }',
      '3',
      'ENUM_TYPE',
      'enum value 3 of field "value" is not a string; quote it: "3"',
    ],
    ['{ type: integer, enum: [1, 2.5] }', '2.5', 'ENUM_TYPE', 'enum value 2.5 of field "value" is not an integer'],
    [
      '{ type: integer, minimum: 1, enum: [0, 1] }',
      '0,',
      'ENUM_TYPE',
      'enum value 0 of field "value" is less than the minimum 1',
    ],
    [
      '{ type: string, enum: [a, null] }',
      'null',
      'ENUM_TYPE',
      'lists null; leave it out and set nullable: true instead',
    ],
    ['{ type: integer, default: "5" }', '"5"', 'DEFAULT_TYPE', 'default "5" of field "value" is not an integer'],
    ['{ type: integer, default: 1.5 }', '1.5', 'DEFAULT_TYPE', 'is not an integer'],
    ['{ type: string, default: 5 }', '5', 'DEFAULT_TYPE', 'default 5 of field "value" is not a string; quote it: "5"'],
    ['{ type: boolean, default: yes }', 'yes', 'DEFAULT_TYPE', 'default "yes" of field "value" is not true or false'],
    [
      '{ type: string, default: [a, b] }',
      '[a, b]',
      'DEFAULT_TYPE',
      'default ["a","b"] of field "value" is not a string',
    ],
    [
      '{ type: string, enum: [pending, paid], default: pendng }',
      'pendng',
      'DEFAULT_TYPE',
      'is not one of the enum values "pending", "paid"; did you mean "pending"?',
    ],
    [
      '{ type: number, minimum: 0, default: -1 }',
      '-1',
      'DEFAULT_TYPE',
      'default -1 of field "value" is less than the minimum 0',
    ],
    ['{ type: number, maximum: 10, default: 11 }', '11', 'DEFAULT_TYPE', 'is greater than the maximum 10'],
    ['{ type: string, max_length: 2, default: abc }', 'abc', 'DEFAULT_TYPE', 'is longer than max_length 2'],
    ['{ type: string, min_length: 2, default: a }', 'a }', 'DEFAULT_TYPE', 'is shorter than min_length 2'],
    ['{ type: string, pattern: "^[A-Z]+$", default: abc }', 'abc', 'DEFAULT_TYPE', 'does not match pattern "^[A-Z]+$"'],
    ['{ type: string, format: email, default: nope }', 'nope', 'DEFAULT_TYPE', 'is not a valid email'],
    ['{ type: string, format: uuid, default: nope }', 'nope', 'DEFAULT_TYPE', 'is not a valid uuid'],
    ['{ type: date, default: 2024-13-01 }', '2024', 'DEFAULT_TYPE', 'is not a date (YYYY-MM-DD)'],
    ['{ type: datetime, default: 2024-01-31 }', '2024', 'DEFAULT_TYPE', 'is not an RFC 3339 date-time'],
    ['{ type: string, default: null }', 'null', 'DEFAULT_TYPE', 'default null of field "value" needs nullable: true'],
  ])('rejects %s', (flow, needle, code, message) => {
    const found = diagnose(options(flow))
    expect(found.map(({ code, line, col }) => ({ code, line, col }))).toEqual([
      { code, line: 9, col: colOf(flow, needle) },
    ])
    expect(found[0]?.message).toContain(message)
  })

  it.each([
    '{ type: string, required: true, min_length: 1, max_length: 200, pattern: "^[a-z]+$", default: abc }',
    '{ type: string, format: email, unique: true, default: a@example.com }',
    '{ type: string, format: uri, default: "https://example.com/x" }',
    '{ type: string, format: uuid, default: 0b7e3f5c-5d0a-4c8e-9f1a-2b3c4d5e6f70 }',
    '{ type: integer, minimum: 1, maximum: 1, default: 1 }',
    '{ type: number, enum: [1, 2.5], default: 2.5 }',
    '{ type: string, enum: [pending, paid], default: pending }',
    '{ type: boolean, default: false }',
    '{ type: date, default: 2024-02-29 }',
    '{ type: datetime, default: "2024-01-31T09:30:00Z" }',
    '{ type: string, nullable: true, default: null }',
    '{ type: string, pattern: "^\\\\p{L}+$", default: "été" }',
  ])('accepts %s', (flow) => {
    expect(diagnose(options(flow))).toEqual([])
  })

  it('skips option checks when the type itself is wrong (the schema reports it)', () => {
    expect(diagnose(options('{ type: strin, minimum: 1, default: 3 }')).map(({ code }) => code)).toEqual(['SCHEMA'])
  })
})
