import { describe, expect, it } from 'vitest'
import { diagnose, withResources } from './diagnose.js'

const POSTS = `  authors:
    fields:
      name: { type: string }
  posts:
    fields:
      title: { type: string }
`

type TestCase = [string, { given: string; want: readonly string[] }]

const cases: TestCase[] = [
  [
    'renames of a resource, a field and a belongs-to relation',
    {
      given: `  writers:\n    renamed_from: authors\n  posts:\n    fields:\n      headline: { type: string, renamed_from: title }\n    relations:\n      writer: { resource: writers, renamed_from: author }\n`,
      want: [],
    },
  ],
  [
    'a resource renamed from its own name',
    {
      given: `  authors:\n    renamed_from: authors\n`,
      want: [
        'RENAMED_FROM 8:19 renamed_from of resource "authors" is its own name; write the name it had before, or remove renamed_from',
      ],
    },
  ],
  [
    'a resource renamed from a resource still declared',
    {
      given: `${POSTS}  writers:\n    renamed_from: authors\n`,
      want: [
        'RENAMED_FROM 14:19 renamed_from of resource "writers" names "authors", but resource "authors" is still in this manifest; an old name must be free: remove renamed_from if "authors" was not renamed, or rename resource "authors" too',
      ],
    },
  ],
  [
    'a field renamed from another field of the resource',
    {
      given: `${POSTS}      headline: { type: string, renamed_from: title }\n`,
      want: [
        'RENAMED_FROM 13:47 renamed_from of field "headline" of resource "posts" names "title", but field "title" is still in this manifest; an old name must be free: remove renamed_from if "title" was not renamed, or rename field "title" too',
      ],
    },
  ],
  [
    'a field renamed from a generated field',
    {
      given: `${POSTS}      made: { type: datetime, renamed_from: created_at }\n`,
      want: [
        'RENAMED_FROM 13:45 renamed_from of field "made" of resource "posts" names "created_at", but field "created_at" is still in this manifest; an old name must be free: remove renamed_from if "created_at" was not renamed, or rename field "created_at" too',
      ],
    },
  ],
  [
    'a field renamed from its own name',
    {
      given: `${POSTS}      body: { type: string, renamed_from: body }\n`,
      want: [
        'RENAMED_FROM 13:43 renamed_from of field "body" of resource "posts" is its own name; write the name it had before, or remove renamed_from',
      ],
    },
  ],
  [
    'two fields renamed from one old name',
    {
      given: `${POSTS}      a: { type: string, renamed_from: old }\n      b: { type: string, renamed_from: old }\n`,
      want: [
        'RENAMED_FROM 14:40 renamed_from of field "b" of resource "posts" names "old", which field "a" of resource "posts" already names as its old name; keep renamed_from only on the one that had that name',
      ],
    },
  ],
  [
    'an old name not of the form of a field name',
    {
      given: `${POSTS}      body: { type: string, renamed_from: Body }\n`,
      want: [
        'RENAMED_FROM 13:43 renamed_from of field "body" of resource "posts" must be the name it had before, a field name (lower_snake_case); found "Body"',
      ],
    },
  ],
  [
    'a relation renamed from one whose key is a field',
    {
      given: `${POSTS}      editor_id: { type: integer }\n    relations:\n      author: { resource: authors, renamed_from: editor }\n`,
      want: [
        'RENAMED_FROM 15:50 renamed_from of relation "author" of resource "posts" names "editor", but field "editor_id" is still in this manifest; an old name must be free: remove renamed_from if "editor" was not renamed, or rename field "editor_id" too',
      ],
    },
  ],
  [
    'renamed_from on a has-many',
    {
      given: `  authors:\n    relations:\n      posts: { resource: posts, many: true, renamed_from: articles }\n  posts:\n    relations:\n      author: { resource: authors }\n`,
      want: [
        'RELATION_OPTIONS 9:45 "renamed_from" applies to belongs-to relations; has-many relation "posts" adds no foreign key here (the link back on "posts" does); remove it',
      ],
    },
  ],
]

describe('renamed_from', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const found = diagnose(withResources(given)).map(
      ({ code, line, col, message }) => `${code} ${line}:${col} ${message}`,
    )
    expect(found).toEqual(want)
  })
})
