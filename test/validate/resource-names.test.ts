import { describe, expect, it } from 'vitest'
import { codesAt, diagnose, withResources } from './diagnose.js'

describe('resource naming rules', () => {
  it.each([
    ['author', 'NAMING_PLURAL', 'collection "author" must be a plural noun; did you mean "authors"?'],
    ['order-item', 'NAMING_PLURAL', 'did you mean "order-items"?'],
    ['corpora', 'NAMING_PLURAL', 'did you mean "corporas"?'],
    [
      'Orders',
      'NAMING_LOWERCASE',
      'collection "Orders" must be entirely lowercase (paths are lowercase); did you mean "orders"?',
    ],
    ['ORDER-ITEMS', 'NAMING_LOWERCASE', 'did you mean "order-items"?'],
    ['Order', 'NAMING_LOWERCASE', 'did you mean "orders"?'],
    [
      'orderItems',
      'NAMING_HYPHENS',
      'collection "orderItems" must separate its words with single hyphens, not underscores, spaces or camelCase; did you mean "order-items"?',
    ],
    ['order_items', 'NAMING_HYPHENS', 'did you mean "order-items"?'],
    ['OrderItems', 'NAMING_HYPHENS', 'did you mean "order-items"?'],
    ['order--items', 'NAMING_HYPHENS', 'did you mean "order-items"?'],
    ['-orders', 'NAMING_HYPHENS', 'did you mean "orders"?'],
    ['order items', 'NAMING_HYPHENS', 'did you mean "order-items"?'],
    ['order_item', 'NAMING_HYPHENS', 'did you mean "order-items"?'],
    ['createOrder', 'NAMING_HYPHENS', 'did you mean "orders"?'],
    [
      'create-orders',
      'NAMING_NO_VERBS',
      'contains the verb "create": paths name things, and the action belongs to the HTTP method (POST on the collection); did you mean "orders"?',
    ],
    ['get-users', 'NAMING_NO_VERBS', 'the HTTP method (GET on the collection or an item); did you mean "users"?'],
    ['delete-orders', 'NAMING_NO_VERBS', '(DELETE on an item); did you mean "orders"?'],
    [
      'submit',
      'NAMING_NO_VERBS',
      'collection "submit" is the verb "submit": paths name things, and the action belongs to a resource of its own (POST /submissions); did you mean "submissions"?',
    ],
    [
      'search',
      'NAMING_NO_VERBS',
      'the HTTP method (GET on the collection or an item) or to a resource of its own (POST /searches); did you mean "searches"?',
    ],
    ['orders-submit', 'NAMING_NO_VERBS', 'did you mean "order-submissions"?'],
    ['cancel-orders', 'NAMING_NO_VERBS', 'did you mean "order-cancellations"?'],
    ['user-search', 'NAMING_NO_VERBS', 'did you mean "user-searches"?'],
    ['do', 'NAMING_NO_VERBS', 'the HTTP method (POST, GET, PUT, PATCH or DELETE) or to a resource of its own'],
    [
      '../orders',
      'UNSAFE_NAME',
      'resource name "../orders" contains "/", which would escape the URL path and the generated file names',
    ],
    ['a/b', 'UNSAFE_NAME', 'contains "/"'],
    ['orders.json', 'UNSAFE_NAME', 'contains ".", which is not allowed in paths, file names and identifiers'],
    ['..', 'UNSAFE_NAME', 'contains "..", which would walk out of the generated directories'],
    ['__proto__', 'UNSAFE_NAME', 'is a built-in property of every JavaScript object'],
    ['constructor', 'UNSAFE_NAME', 'is a built-in property of every JavaScript object'],
    ['prototype', 'UNSAFE_NAME', 'is a built-in property of every JavaScript object'],
    ['2fa-codes', 'UNSAFE_NAME', 'starts with a digit'],
    ['ördérs', 'UNSAFE_NAME', 'contains "ö"'],
  ])('rejects %j with %s at the key', (name, code, message) => {
    const found = diagnose(withResources(`  ${JSON.stringify(name)}: {}\n`))
    expect(found.map(({ code, line, col }) => ({ code, line, col }))).toEqual([{ code, line: 7, col: 3 }])
    expect(found[0]?.message).toContain(message)
  })

  it.each([
    'orders',
    'order-items',
    'categories',
    'people',
    'news',
    'equipment',
    'searches',
    'updates',
    'submissions',
    'search-results',
    'login-attempts',
    'export-jobs',
    'v2-items',
    'constructors',
  ])('accepts %j', (name) => {
    expect(codesAt(withResources(`  ${name}: {}\n`))).toEqual([])
  })

  it('spans the whole key token', () => {
    const [found] = diagnose(withResources('  order_items: {}\n'))
    expect(found?.diagnostic.end).toBe((found?.diagnostic.start ?? 0) + 'order_items'.length)
  })

  it('reports one diagnostic per name, its fix repairing every rule', () => {
    const found = diagnose(withResources('  Create_Order: {}\n'))
    expect(found.map(({ code }) => code)).toEqual(['NAMING_HYPHENS'])
    expect(found[0]?.message).toContain('did you mean "orders"?')
  })
})

describe('declared singular', () => {
  it('skips the plural check', () => {
    expect(codesAt(withResources('  corpora:\n    singular: corpus\n'))).toEqual([])
  })

  it.each([
    [
      'Corpus',
      'NAMING_LOWERCASE',
      'singular "Corpus" of resource "corpora" must be entirely lowercase; did you mean "corpus"?',
    ],
    ['big_corpus', 'NAMING_HYPHENS', 'did you mean "big-corpus"?'],
    ['../corpus', 'UNSAFE_NAME', 'contains "/"'],
  ])('checks a singular %j at its value', (singular, code, message) => {
    const found = diagnose(withResources(`  corpora:\n    singular: ${JSON.stringify(singular)}\n`))
    expect(found.map(({ code, line, col }) => ({ code, line, col }))).toEqual([{ code, line: 8, col: 15 }])
    expect(found[0]?.message).toContain(message)
  })

  it('rejects two resources with the same singular, at the second', () => {
    const found = diagnose(withResources('  people: {}\n  persons: {}\n'))
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['SINGULAR_COLLISION 8:3'])
    expect(found[0]?.message).toContain('resources "people" and "persons" have the same singular "person"')
  })

  it('points a collision caused by a declared singular at that singular', () => {
    expect(codesAt(withResources('  people: {}\n  humans:\n    singular: person\n'))).toEqual([
      'SINGULAR_COLLISION 9:15',
    ])
  })
})
