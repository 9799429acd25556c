import { describe, expect, it } from 'vitest'
import { codesAt, diagnose, expectOnlyDiagnostic, withResources } from './diagnose.js'

/** The resources of issue #3's example, to which each case adds or changes one thing. */
const SHOP = `  authors:
    fields:
      name: { type: string }
  categories: {}
  products: {}
  posts:
    fields:
      title: { type: string, required: true }
    relations:
      author: { resource: authors }
      category: { resource: categories, required: true }
      comments: { resource: comments, many: true }
    include: [author, category, comments]
  comments:
    parent: posts
  orders:
    relations:
      items: { resource: items, many: true }
    include: [items, items.product]
  items:
    parent: orders
    relations:
      product: { resource: products }
`

describe('relations: valid manifests', () => {
  it.each([
    ['the issue example (has-many through a parent key)', SHOP],
    [
      'a has-many through a belongs-to',
      '  authors:\n    relations:\n      posts: { resource: posts, many: true }\n  posts:\n    relations:\n      author: { resource: authors }\n',
    ],
    [
      'max_items on a has-many, up to per_page_max',
      '  posts:\n    relations:\n      comments: { resource: comments, many: true, max_items: 100 }\n  comments:\n    parent: posts\n',
    ],
    [
      'via naming the parent key among several links back',
      '  posts:\n    relations:\n      comments: { resource: comments, many: true, via: post_id }\n  comments:\n    parent: posts\n    relations:\n      quoted: { resource: posts }\n',
    ],
    [
      'via naming a relation among several links back',
      '  authors:\n    relations:\n      edited: { resource: posts, many: true, via: editor }\n  posts:\n    relations:\n      author: { resource: authors, on_delete: cascade }\n      editor: { resource: authors }\n',
    ],
    [
      'a self-reference and its inverse (a tree)',
      '  employees:\n    relations:\n      manager: { resource: employees }\n      reports: { resource: employees, many: true }\n    include: [manager, reports, manager.manager]\n',
    ],
    [
      'a relation named parent',
      '  categories:\n    relations:\n      parent: { resource: categories }\n      children: { resource: categories, many: true, via: parent }\n',
    ],
  ])('accepts %s', (_, body) => {
    expect(codesAt(withResources(body))).toEqual([])
  })
})

describe('relations: each rule, at its position', () => {
  it.each([
    [
      'an unknown target, with a did-you-mean, at the value',
      '  authors: {}\n  posts:\n    relations:\n      author: { resource: author }\n',
      'RELATION_TARGET_UNKNOWN 10:27',
      'resource "author" of relation "author" is not a resource in this manifest; did you mean "authors"?',
    ],
    [
      'an unknown target, listing the resources',
      '  authors: {}\n  posts:\n    relations:\n      author: { resource: writers }\n',
      'RELATION_TARGET_UNKNOWN 10:27',
      'declared resources: authors, posts',
    ],
    [
      'a relation named like a declared field',
      '  authors: {}\n  posts:\n    fields:\n      author: { type: string }\n    relations:\n      author: { resource: authors }\n',
      'RELATION_NAME_CLASH 12:7',
      'relation "author" of resource "posts" has the name of field "author": an included record would replace that field in responses; rename the relation',
    ],
    [
      'a relation named like a server-managed field',
      '  authors: {}\n  posts:\n    relations:\n      created_at: { resource: authors }\n',
      'RELATION_NAME_CLASH 10:7',
      'has the name of field "created_at", which the server manages',
    ],
    [
      "a relation named like another relation's key",
      '  authors: {}\n  posts:\n    relations:\n      author: { resource: authors }\n      author_id: { resource: authors }\n',
      'RELATION_NAME_CLASH 11:7',
      'has the name of field "author_id", the key of relation "author"',
    ],
    [
      'a relation named like the parent key',
      '  orders: {}\n  items:\n    parent: orders\n    relations:\n      order_id: { resource: orders }\n',
      'RELATION_NAME_CLASH 11:7',
      'has the name of field "order_id", the key of parent "orders"',
    ],
    [
      'a belongs-to to the parent, whose key the parent already adds',
      '  orders: {}\n  items:\n    parent: orders\n    relations:\n      order: { resource: orders }\n',
      'RELATION_NAME_CLASH 11:7',
      'relation "order" of resource "items" would add the foreign key "order_id", which parent "orders" already adds; parent: already links the two; remove the relation',
    ],
    [
      "a declared field that repeats a relation's key, at the field",
      '  authors: {}\n  posts:\n    fields:\n      author_id: { type: integer }\n    relations:\n      author: { resource: authors }\n',
      'FIELD_RESERVED 10:7',
      'field "author_id" is the foreign key generated from relation "author"; remove it',
    ],
    [
      'a relation name that is not lower_snake_case',
      '  authors: {}\n  posts:\n    relations:\n      mainAuthor: { resource: authors }\n',
      'FIELD_LOWER_SNAKE_CASE 10:7',
      'relation "mainAuthor" must be lower_snake_case; did you mean "main_author"?',
    ],
    [
      'an unsafe relation name',
      '  authors: {}\n  posts:\n    relations:\n      constructor: { resource: authors }\n',
      'UNSAFE_NAME 10:7',
      'relation name "constructor" is a built-in property of every JavaScript object',
    ],
    [
      'required on a has-many, at the key',
      '  posts:\n    relations:\n      comments: { resource: comments, many: true, required: true }\n  comments:\n    parent: posts\n',
      'RELATION_OPTIONS 9:51',
      '"required" applies to belongs-to relations; has-many relation "comments" adds no foreign key here',
    ],
    [
      'on_delete on a has-many',
      '  posts:\n    relations:\n      comments: { resource: comments, many: true, on_delete: cascade }\n  comments:\n    parent: posts\n',
      'RELATION_OPTIONS 9:51',
      '"on_delete" applies to belongs-to relations',
    ],
    [
      'via on a belongs-to',
      '  authors: {}\n  posts:\n    relations:\n      author: { resource: authors, via: posts }\n',
      'RELATION_OPTIONS 10:36',
      '"via" applies to has-many relations; relation "author" is a belongs-to: add many: true, or remove via',
    ],
    [
      'max_items on a belongs-to (issue 6, item 11)',
      '  authors: {}\n  posts:\n    relations:\n      author: { resource: authors, max_items: 5 }\n',
      'RELATION_OPTIONS 10:36',
      '"max_items" applies to has-many relations; relation "author" is a belongs-to: add many: true, or remove max_items',
    ],
    [
      'max_items on a has-many above per_page_max (issue 6, item 11), at the value',
      '  posts:\n    relations:\n      comments: { resource: comments, many: true, max_items: 101 }\n  comments:\n    parent: posts\n',
      'LIMITS_RANGE 9:62',
      'max_items of relation "comments" 101 is greater than per_page_max 100; it must be at most 100',
    ],
    [
      'a has-many without a link back, at the relation',
      '  authors:\n    relations:\n      posts: { resource: posts, many: true }\n  posts: {}\n',
      'HAS_MANY_INVERSE_MISSING 9:7',
      'has-many relation "posts" of resource "authors" needs a link back: "posts" has neither parent: authors nor a belongs-to relation to "authors"; add one to "posts", e.g. relations: { author: { resource: authors } }',
    ],
    [
      'a has-many with several links back and no via',
      '  authors:\n    relations:\n      posts: { resource: posts, many: true }\n  posts:\n    relations:\n      author: { resource: authors }\n      editor: { resource: authors }\n',
      'HAS_MANY_INVERSE_AMBIGUOUS 9:7',
      '"posts" links back to "authors" through relation "author" and relation "editor"; name one with via:, e.g. via: author',
    ],
    [
      'via naming no link back, with a did-you-mean, at the value',
      '  authors:\n    relations:\n      posts: { resource: posts, many: true, via: autor }\n  posts:\n    relations:\n      author: { resource: authors }\n',
      'HAS_MANY_VIA 9:50',
      'via "autor" of relation "posts" names no link from "posts" back to "authors"; did you mean "author"?',
    ],
    [
      'via on a has-many whose target has no link back',
      '  authors:\n    relations:\n      posts: { resource: posts, many: true, via: author }\n  posts: {}\n',
      'HAS_MANY_VIA 9:50',
      '"posts" has none: add parent: authors, or a belongs-to relation to "authors", there',
    ],
    [
      'two belongs-to relations forming a loop, once, at the first',
      '  alphas:\n    relations:\n      beta: { resource: betas }\n  betas:\n    relations:\n      alpha: { resource: alphas }\n',
      'RELATION_CYCLE 9:25',
      'relation "beta" of "alphas" closes a loop of foreign keys (alphas → betas → alphas)',
    ],
    [
      'a loop through a parent and a relation',
      '  orders:\n    relations:\n      last_item: { resource: items }\n  items:\n    parent: orders\n',
      'RELATION_CYCLE 9:30',
      '(orders → items → orders)',
    ],
    [
      'a relation without a target',
      '  posts:\n    relations:\n      author: { required: true }\n',
      'SCHEMA 9:7',
      'relation "author" is missing the required key "resource"',
    ],
    [
      'an unknown relation key',
      '  authors: {}\n  posts:\n    relations:\n      author: { resource: authors, requird: true }\n',
      'UNKNOWN_KEY 10:36',
      'unknown key "requird" in relation "author"; did you mean "required"?',
    ],
  ])('rejects %s', (_, body, expected, message) => {
    expectOnlyDiagnostic(withResources(body), expected, message)
  })

  it('reports a loop of three once, and not the self-reference next to it', () => {
    const text = withResources(
      '  alphas:\n    relations:\n      beta: { resource: betas }\n      self: { resource: alphas }\n  betas:\n    relations:\n      gamma: { resource: gammas }\n  gammas:\n    relations:\n      alpha: { resource: alphas }\n',
    )
    const found = diagnose(text)
    expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual(['RELATION_CYCLE 9:25'])
    expect(found[0]?.message).toContain('(alphas → betas → gammas → alphas)')
  })

  it('leaves a has-many to an unknown target to RELATION_TARGET_UNKNOWN', () => {
    expect(codesAt(withResources('  authors:\n    relations:\n      posts: { resource: post, many: true }\n'))).toEqual(
      ['RELATION_TARGET_UNKNOWN 9:26'],
    )
  })
})
