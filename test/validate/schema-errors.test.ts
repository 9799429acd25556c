import { describe, expect, it } from 'vitest'
import { diagnose, expectOnlyDiagnostic, HEADER, withResources } from './diagnose.js'

describe('schema errors mapped to YAML nodes', () => {
  it.each([
    [
      'an unknown top-level key, at the key, with a did-you-mean',
      `${HEADER}  orders: {}\nresource: {}\n`,
      'UNKNOWN_KEY 8:1',
      'unknown key "resource" at the top level; did you mean "resources"?',
    ],
    [
      'an unknown field option',
      withResources('  orders:\n    fields:\n      name: { type: string, requird: true }\n'),
      'UNKNOWN_KEY 9:29',
      'unknown key "requird" in field "name"; did you mean "required"?',
    ],
    [
      'a camelCase option',
      withResources('  orders:\n    fields:\n      name: { type: string, minLength: 1 }\n'),
      'UNKNOWN_KEY 9:29',
      'did you mean "min_length"?',
    ],
    [
      'an unknown key with no near miss, listing the allowed keys',
      withResources('  orders:\n    actions: {}\n'),
      'UNKNOWN_KEY 8:5',
      'unknown key "actions" in resource "orders"; allowed keys: singular, parent, on_delete, fields, relations, unique, include, sort, filter, cache',
    ],
    [
      'a field written straight under its resource',
      withResources('  orders:\n    status: { type: string }\n'),
      'UNKNOWN_KEY 8:5',
      'fields go under "fields:"',
    ],
    [
      'an option on a version',
      'restmint: 1\nservice:\n  title: Test\nversions:\n  v1: { depreciated: 2027-01-15 }\nresources:\n  orders: {}\n',
      'UNKNOWN_KEY 5:9',
      'unknown key "depreciated" in version "v1"; did you mean "deprecated"?',
    ],
    [
      'a missing field type, at the field key',
      withResources('  orders:\n    fields:\n      name: { required: true }\n'),
      'SCHEMA 9:7',
      'field "name" is missing the required key "type" (one of string, integer, number, boolean, date, datetime, decimal, json, array)',
    ],
    [
      'a missing service title, at the service key',
      'restmint: 1\nservice: {}\nversions:\n  v1: {}\nresources:\n  orders: {}\n',
      'SCHEMA 2:1',
      'service is missing the required key "title"',
    ],
    [
      'a missing top-level key, at the start of the document',
      'service:\n  title: Test\nversions:\n  v1: {}\nresources:\n  orders: {}\n',
      'SCHEMA 1:1',
      'the manifest is missing the required key "restmint": add restmint: 1',
    ],
    [
      'a wrong format version, at the value',
      'restmint: 2\nservice:\n  title: Test\nversions:\n  v1: {}\nresources:\n  orders: {}\n',
      'SCHEMA 1:11',
      'restmint must be 1; found 2',
    ],
    [
      'a mistyped field type, with a did-you-mean',
      withResources('  orders:\n    fields:\n      name: { type: strin }\n'),
      'SCHEMA 9:21',
      '"type" of field "name" must be one of string, integer, number, boolean, date, datetime, decimal, json, array; found "strin"; did you mean "string"?',
    ],
    [
      'a quoted number, once for all the keywords it breaks',
      withResources('  orders:\n    fields:\n      name: { type: string, max_length: "200" }\n'),
      'SCHEMA 9:41',
      '"max_length" of field "name" must be a non-negative integer; found "200"',
    ],
    [
      'a bad on_delete',
      withResources('  orders: {}\n  items:\n    parent: orders\n    on_delete: nullify\n'),
      'SCHEMA 10:16',
      '"on_delete" of resource "items" must be one of restrict, cascade, set_null; found "nullify"',
    ],
    [
      'a zero limit',
      'restmint: 1\nservice:\n  title: Test\nlimits:\n  per_page_max: 0\nversions:\n  v1: {}\nresources:\n  orders: {}\n',
      'SCHEMA 5:17',
      'limits.per_page_max must be a positive integer; found 0',
    ],
    [
      'a relative base_url',
      'restmint: 1\nservice:\n  title: Test\n  base_url: /api\nversions:\n  v1: {}\nresources:\n  orders: {}\n',
      'SCHEMA 4:13',
      'service.base_url must be an absolute URI such as http://localhost:3000; found "/api"',
    ],
    [
      'no versions',
      'restmint: 1\nservice:\n  title: Test\nversions: {}\nresources:\n  orders: {}\n',
      'SCHEMA 4:11',
      'versions must be a map with at least one entry; found an empty map',
    ],
    [
      'an empty resources key, at the key',
      'restmint: 1\nservice:\n  title: Test\nversions:\n  v1: {}\nresources:\n',
      'SCHEMA 6:1',
      'resources must be a map with at least one entry; found null',
    ],
    [
      'fields given as a list',
      withResources('  orders:\n    fields: [name]\n'),
      'SCHEMA 8:13',
      'fields of resource "orders" must be a map; found a list',
    ],
    [
      'a duplicated enum value, at the later one',
      withResources('  orders:\n    fields:\n      status: { type: string, enum: [a, b, a] }\n'),
      'SCHEMA 9:44',
      '"enum" of field "status" lists "a" more than once; list each value once',
    ],
    ['an empty file', '', 'SCHEMA 1:1', 'the manifest is empty; it must be a map that starts with restmint: 1'],
    [
      'a list',
      '- orders\n',
      'SCHEMA 1:1',
      'the manifest must be a map of restmint, service, versions and resources; found a list',
    ],
  ])('reports %s', (_, text, expected, message) => {
    expectOnlyDiagnostic(text, expected, message)
  })

  it('leaves bad names to the naming rules instead of reporting the schema pattern', () => {
    const found = diagnose(
      'restmint: 1\nservice:\n  title: Test\nversions:\n  V1: {}\nresources:\n  Orders:\n    singular: Order\n    fields:\n      inStock: { type: boolean }\n',
    )
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual([
      'VERSION_NAME 5:3',
      'NAMING_LOWERCASE 7:3',
      'NAMING_LOWERCASE 8:15',
      'FIELD_LOWER_SNAKE_CASE 10:7',
    ])
  })
})
