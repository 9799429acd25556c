import { describe, expect, it } from 'vitest'
import { diagnose, withResources } from './diagnose.js'

/** The field under test is on line 9, its key at column 7. */
function field(name: string, resource = '  orders:\n', options = '{ type: string }'): string {
  return withResources(`${resource}    fields:\n      ${JSON.stringify(name)}: ${options}\n`)
}

describe('field naming rules', () => {
  it.each([
    ['inStock', 'FIELD_LOWER_SNAKE_CASE', 'field "inStock" must be lower_snake_case; did you mean "in_stock"?'],
    ['In_Stock', 'FIELD_LOWER_SNAKE_CASE', 'did you mean "in_stock"?'],
    ['in-stock', 'FIELD_LOWER_SNAKE_CASE', 'did you mean "in_stock"?'],
    ['in__stock', 'FIELD_LOWER_SNAKE_CASE', 'did you mean "in_stock"?'],
    ['_stock', 'FIELD_LOWER_SNAKE_CASE', 'did you mean "stock"?'],
    ['id', 'FIELD_RESERVED', 'field "id" is managed by the server'],
    ['created_at', 'FIELD_RESERVED', 'is managed by the server'],
    ['updated_at', 'FIELD_RESERVED', 'is managed by the server'],
    ['createdAt', 'FIELD_RESERVED', 'field "createdAt" looks like "created_at", which is managed by the server'],
    ['page', 'FIELD_RESERVED', 'would clash with the collection query parameter ?page='],
    ['per_page', 'FIELD_RESERVED', '?per_page='],
    ['sort', 'FIELD_RESERVED', '?sort='],
    ['include', 'FIELD_RESERVED', '?include='],
    [
      'delete',
      'UNSAFE_NAME',
      'field name "delete" is a JavaScript reserved word and would break generated code; choose another name',
    ],
    ['class', 'UNSAFE_NAME', 'reserved word'],
    ['__proto__', 'UNSAFE_NAME', 'built-in property'],
    ['constructor', 'UNSAFE_NAME', 'built-in property'],
    ['1st_line', 'UNSAFE_NAME', 'starts with a digit'],
    ['a.b', 'UNSAFE_NAME', 'contains "."'],
    ['a/b', 'UNSAFE_NAME', 'contains "/"'],
  ])('rejects %j with %s at the key', (name, code, message) => {
    const found = diagnose(field(name))
    expect(found.map(({ code, line, col }) => ({ code, line, col }))).toEqual([{ code, line: 9, col: 7 }])
    expect(found[0]?.message).toContain(message)
  })

  it.each(['name', 'in_stock', 'line2', 'type', 'status', 'author_email', 'order_id'])('accepts %j', (name) => {
    expect(diagnose(field(name))).toEqual([])
  })

  it('rejects the generated parent foreign key', () => {
    const found = diagnose(field('order_id', '  orders: {}\n  items:\n    parent: orders\n'))
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['FIELD_RESERVED 11:7'])
    expect(found[0]?.message).toContain('is the foreign key generated from parent "orders"')
  })

  it('derives the parent foreign key from a multi-word or declared singular', () => {
    expect(diagnose(field('order_item_id', '  order-items: {}\n  notes:\n    parent: order-items\n'))[0]?.code).toBe(
      'FIELD_RESERVED',
    )
    expect(
      diagnose(field('corpus_id', '  corpora:\n    singular: corpus\n  notes:\n    parent: corpora\n'))[0]?.code,
    ).toBe('FIELD_RESERVED')
  })
})
