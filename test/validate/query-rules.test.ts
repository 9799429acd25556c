import { describe, expect, it } from 'vitest'
import { codesAt, diagnose, expectOnlyDiagnostic, HEADER, withResources } from './diagnose.js'

/** orders → items (parent) → products (belongs-to): the include chain of issue #3. Lines 7 to 18. */
const ORDERS = `  products:
    fields:
      price: { type: number }
  orders:
    relations:
      items: { resource: items, many: true }
  items:
    parent: orders
    relations:
      product: { resource: products }
    fields:
      quantity: { type: integer }
`

describe('include, sort, filter and cache: valid manifests', () => {
  it.each([
    ['include paths one level deep, with their prefix', `${ORDERS}    include: [product]\n`],
    [
      'include paths two levels deep',
      ORDERS.replace('many: true }\n', 'many: true }\n    include: [items, items.product]\n'),
    ],
    [
      'sort on declared, generated and foreign key fields',
      `${ORDERS}    sort: [quantity, created_at, updated_at, id, order_id, product_id]\n`,
    ],
    ['an empty sort (only id) and an empty filter (nothing)', `${ORDERS}    sort: []\n    filter: {}\n`],
    [
      'filters with the operators of their types',
      `${ORDERS}    filter:\n      quantity: [eq, ne, gt, gte, lt, lte, in, "null"]\n      order_id: [eq, in, gt]\n      created_at: [gte, lte]\n`,
    ],
    [
      'a string filter with text operators',
      '  tags:\n    fields:\n      label: { type: string }\n    filter:\n      label: [contains, starts_with, eq]\n',
    ],
    [
      'a boolean filter with eq, ne and null',
      '  tags:\n    fields:\n      on: { type: boolean }\n    filter:\n      on: [eq, ne, "null"]\n',
    ],
    ['a cache on a resource', '  tags:\n    cache: { max_age: 0 }\n'],
  ])('accepts %s', (_, body) => {
    expect(codesAt(withResources(body))).toEqual([])
  })

  it('accepts a service-wide cache', () => {
    expect(codesAt(`${withResources('  tags: {}\n')}cache: { max_age: 60 }\n`)).toEqual([])
  })
})

describe('include, sort, filter and cache: each rule, at its position', () => {
  it.each([
    [
      'an include that names no relation, with a did-you-mean',
      `${ORDERS}    include: [prodcut]\n`,
      'INCLUDE_UNKNOWN 19:15',
      'include path "prodcut" of resource "items" is not a relation of "items"; did you mean "product"?',
    ],
    [
      'an include on a resource without relations',
      `${ORDERS}  tags:\n    include: [owner]\n`,
      'INCLUDE_UNKNOWN 20:15',
      'include path "owner" of resource "tags" is not a relation of "tags", which has no relations; declare one under relations: of "tags"',
    ],
    [
      "a nested include whose second segment is not a relation of the first's target",
      ORDERS.replace('many: true }\n', 'many: true }\n    include: [items, items.order]\n'),
      'INCLUDE_UNKNOWN 13:22',
      '"order" in include path "items.order" of resource "orders" is not a relation of "items"; its relations: product',
    ],
    [
      'a nested include without its prefix',
      ORDERS.replace('many: true }\n', 'many: true }\n    include: [items.product]\n'),
      'INCLUDE_PREFIX 13:15',
      'include path "items.product" of resource "orders" expands "items", which is not in the list itself; add "items" to include:',
    ],
    [
      'an include deeper than the default include_depth',
      ORDERS.replace('many: true }\n', 'many: true }\n    include: [items, items.product, items.product.maker]\n'),
      'INCLUDE_DEPTH 13:37',
      'include path "items.product.maker" of resource "orders" has 3 segments, more than limits.include_depth (2); shorten it to "items.product", or raise limits.include_depth',
    ],
    [
      'an empty include segment',
      `${ORDERS}    include: [product.]\n`,
      'INCLUDE_UNKNOWN 19:15',
      'include path "product." of resource "items" has an empty segment',
    ],
    [
      'a sort field that does not exist, with a did-you-mean',
      `${ORDERS}    sort: [quantity, created]\n`,
      'SORT_UNKNOWN_FIELD 19:22',
      'sort field "created" of resource "items" is not one of its fields; did you mean "created_at"?',
    ],
    [
      'a sort on a relation instead of its key',
      `${ORDERS}    sort: [product]\n`,
      'SORT_UNKNOWN_FIELD 19:12',
      'did you mean "product_id"?',
    ],
    [
      'a filter on a field that does not exist, at the key',
      `${ORDERS}    filter:\n      quantiy: [eq]\n`,
      'FILTER_UNKNOWN_FIELD 20:7',
      'filter field "quantiy" of resource "items" is not one of its fields; did you mean "quantity"?',
    ],
    [
      'a text operator on a number, at the operator',
      `${ORDERS}    filter:\n      quantity: [eq, contains]\n`,
      'FILTER_OPERATOR 20:22',
      'operator "contains" does not apply to field "quantity" of resource "items", which has type integer; integer fields take eq, ne, gt, gte, lt, lte, in, null',
    ],
    [
      'a range operator on a boolean',
      '  tags:\n    fields:\n      on: { type: boolean }\n    filter:\n      on: [gt]\n',
      'FILTER_OPERATOR 11:12',
      'boolean fields take eq, ne, null',
    ],
    [
      'a text operator on a date',
      '  tags:\n    fields:\n      day: { type: date }\n    filter:\n      day: [starts_with]\n',
      'FILTER_OPERATOR 11:13',
      'date fields take eq, ne, gt, gte, lt, lte, in, null',
    ],
    [
      'an operator that does not exist, with a did-you-mean',
      `${ORDERS}    filter:\n      quantity: [gtee]\n`,
      'SCHEMA 20:18',
      'value 1 of filter "quantity" must be one of eq, ne, gt, gte, lt, lte, in, contains, starts_with, null; found "gtee"; did you mean "gte"?',
    ],
    [
      'null written without quotes',
      `${ORDERS}    filter:\n      quantity: [eq, null]\n`,
      'SCHEMA 20:22',
      'found null; write "null" in quotes, or YAML reads it as no value',
    ],
    [
      'a filter without operators',
      `${ORDERS}    filter:\n      quantity: []\n`,
      'SCHEMA 20:17',
      'filter "quantity" must be a non-empty list',
    ],
    [
      'an include listed twice, at the second',
      `${ORDERS}    include: [product, product]\n`,
      'SCHEMA 19:24',
      '"include" of resource "items" lists "product" more than once',
    ],
    [
      'a negative max_age',
      '  tags:\n    cache: { max_age: -1 }\n',
      'SCHEMA 8:23',
      'cache.max_age of resource "tags" must be a non-negative integer; found -1',
    ],
    [
      'a cache without max_age',
      '  tags:\n    cache: {}\n',
      'SCHEMA 8:5',
      '"cache" of resource "tags" is missing the required key "max_age"',
    ],
  ])('rejects %s', (_, body, expected, message) => {
    expectOnlyDiagnostic(withResources(body), expected, message)
  })

  it('counts include depth against limits.include_depth', () => {
    const text = `${HEADER.replace('resources:\n', 'limits:\n  include_depth: 1\nresources:\n')}${ORDERS.replace(
      'many: true }\n',
      'many: true }\n    include: [items, items.product]\n',
    )}`
    const found = diagnose(text)
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['INCLUDE_DEPTH 15:22'])
    expect(found[0]?.message).toContain('more than limits.include_depth (1); shorten it to "items"')
  })

  it('reports an unknown key in a service-wide cache, at the key', () => {
    const found = diagnose(`${withResources('  tags: {}\n')}cache: { maxage: 60 }\n`)
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['SCHEMA 8:1', 'UNKNOWN_KEY 8:10'])
    expect(found[1]?.message).toBe('unknown key "maxage" in cache; did you mean "max_age"?')
  })
})
