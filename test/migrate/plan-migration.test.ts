import { describe, expect, it } from 'vitest'
import type { Backfill } from '../../generator/migrate/backfill.js'
import { planMigration } from '../../generator/migrate/plan-migration.js'
import type { ColumnSource, TableChange } from '../../generator/migrate/migration-plan.js'
import { storageOf } from './storage-of.js'

const AUTHORS = `  authors:\n    fields:\n      name: { type: string, required: true }\n`
const POSTS = `  posts:\n    fields:\n      title: { type: string, required: true }\n`

interface Want {
  /** Per changed table, in plan order: `+table`, `-table`, `~old>new` or `~table`, with the sources of changed tables. */
  readonly changes?: readonly string[]
  readonly sources?: Readonly<Record<string, ColumnSource>>
  readonly dataLoss?: readonly string[]
  /** `severity CODE path: message fragment` */
  readonly problems?: readonly string[]
}

type TestCase = [
  string,
  {
    before: string
    after: string
    backfills?: readonly Omit<Backfill, 'option'>[]
    allowDataLoss?: boolean
    want: Want
  },
]

const cases: TestCase[] = [
  [
    'first migration creates every table, referenced ones first',
    {
      before: '',
      after: `${POSTS}    relations:\n      author: { resource: authors }\n${AUTHORS}`,
      want: { changes: ['+authors', '+posts'] },
    },
  ],
  [
    'no change, field order and validation options aside',
    {
      before: `  posts:\n    fields:\n      title: { type: string, required: true, enum: [a] }\n      body: { type: string }\n`,
      after: `  posts:\n    fields:\n      body: { type: string, min_length: 1, pattern: '^a' }\n      title: { type: string, required: true, enum: [a, b], min_length: 1 }\n`,
      want: { changes: [] },
    },
  ],
  [
    'add an optional field',
    {
      before: POSTS,
      after: `${POSTS}      summary: { type: string }\n`,
      want: { changes: ['~posts'], sources: { summary: { kind: 'new' }, title: { kind: 'column', column: 'title' } } },
    },
  ],
  [
    'add a required field with a default',
    {
      before: POSTS,
      after: `${POSTS}      views: { type: integer, required: true, default: 0 }\n`,
      want: { changes: ['~posts'], sources: { views: { kind: 'new' } } },
    },
  ],
  [
    'add a required field with a backfill',
    {
      before: POSTS,
      after: `${POSTS}      summary: { type: string, required: true }\n`,
      backfills: [{ table: 'posts', column: 'summary', value: 'none' }],
      want: { changes: ['~posts'], sources: { summary: { kind: 'new', backfill: 'none' } } },
    },
  ],
  [
    'add a required field without a value',
    {
      before: POSTS,
      after: `${POSTS}      summary: { type: string, required: true }\n`,
      want: {
        problems: [
          'error MIGRATION_VALUE_NEEDED resources.posts.fields.summary: field "summary" of resource "posts" is added as NOT NULL (required, without a default), so the rows already in table posts need a value for it: give it a default in the manifest, or pass --backfill posts.summary=<value>',
        ],
      },
    },
  ],
  [
    'make a field not nullable with its default',
    {
      before: `${POSTS}      status: { type: string }\n`,
      after: `${POSTS}      status: { type: string, default: draft }\n`,
      want: { changes: ['~posts'], sources: { status: { kind: 'column', column: 'status', backfill: 'draft' } } },
    },
  ],
  [
    'make a field not nullable: a backfill wins over the default',
    {
      before: `${POSTS}      status: { type: string }\n`,
      after: `${POSTS}      status: { type: string, default: draft }\n`,
      backfills: [{ table: 'posts', column: 'status', value: 'old' }],
      want: { sources: { status: { kind: 'column', column: 'status', backfill: 'old' } } },
    },
  ],
  [
    'make a field not nullable without a value',
    {
      before: `${POSTS}      status: { type: string }\n`,
      after: `${POSTS}      status: { type: string, required: true }\n`,
      want: {
        problems: [
          'error MIGRATION_VALUE_NEEDED resources.posts.fields.status: field "status" of resource "posts" becomes NOT NULL, but existing rows of table posts may hold NULL there: give it a default in the manifest (it replaces the NULLs), or pass --backfill posts.status=<value>',
        ],
      },
    },
  ],
  [
    'make a field nullable',
    {
      before: `${POSTS}      status: { type: string, required: true }\n`,
      after: `${POSTS}      status: { type: string, nullable: true }\n`,
      want: { changes: ['~posts'], sources: { status: { kind: 'column', column: 'status' } } },
    },
  ],
  [
    'remove a field: data loss',
    {
      before: `${POSTS}      legacy: { type: boolean }\n`,
      after: POSTS,
      want: {
        problems: [
          'error MIGRATION_DATA_LOSS resources.posts: column legacy is no longer in resource "posts": the migration drops it from table posts with all its values; pass --allow-data-loss to accept the loss',
        ],
      },
    },
  ],
  [
    'remove a field with --allow-data-loss',
    {
      before: `${POSTS}      legacy: { type: boolean }\n`,
      after: POSTS,
      allowDataLoss: true,
      want: { changes: ['~posts'], dataLoss: ['column posts.legacy (all its values)'], problems: [] },
    },
  ],
  [
    'remove a field and add one of its type: did you mean renamed_from',
    {
      before: `${POSTS}      summary: { type: string }\n`,
      after: `${POSTS}      abstract: { type: string }\n`,
      want: {
        problems: [
          'error MIGRATION_DATA_LOSS resources.posts.fields.abstract: column summary is no longer in resource "posts": the migration drops it from table posts with all its values; if it was renamed, declare it: did you mean renamed_from: summary on field "abstract" of resource "posts"? Otherwise pass --allow-data-loss to accept the loss',
        ],
      },
    },
  ],
  [
    'the same with --allow-data-loss is a warning',
    {
      before: `${POSTS}      summary: { type: string }\n`,
      after: `${POSTS}      abstract: { type: string }\n`,
      allowDataLoss: true,
      want: {
        changes: ['~posts'],
        problems: [
          'warning MIGRATION_DATA_LOSS resources.posts.fields.abstract: column summary is no longer in resource "posts": the migration drops it from table posts with all its values; if it was renamed, declare it: did you mean renamed_from: summary on field "abstract" of resource "posts"?',
        ],
      },
    },
  ],
  [
    'a required field added while one is dropped suggests the rename',
    {
      before: `${POSTS}      summary: { type: string, required: true }\n`,
      after: `${POSTS}      abstract: { type: string, required: true }\n`,
      allowDataLoss: true,
      want: {
        problems: [
          'error MIGRATION_VALUE_NEEDED resources.posts.fields.abstract: field "abstract" of resource "posts" is added as NOT NULL (required, without a default), so the rows already in table posts need a value for it: give it a default in the manifest, or pass --backfill posts.abstract=<value>; or, if it is an old column renamed, did you mean renamed_from: summary on field "abstract" of resource "posts"?',
          'warning MIGRATION_DATA_LOSS resources.posts.fields.abstract: column summary is no longer in resource "posts": the migration drops it from table posts with all its values; if it was renamed, declare it: did you mean renamed_from: summary on field "abstract" of resource "posts"?',
        ],
      },
    },
  ],
  [
    'rename a field',
    {
      before: `${POSTS}      summary: { type: string }\n`,
      after: `${POSTS}      abstract: { type: string, renamed_from: summary }\n`,
      want: { changes: ['~posts'], sources: { abstract: { kind: 'column', column: 'summary' } }, problems: [] },
    },
  ],
  [
    'a rename already migrated is ignored',
    {
      before: `${POSTS}      abstract: { type: string }\n`,
      after: `${POSTS}      abstract: { type: string, renamed_from: summary }\n`,
      want: { changes: [] },
    },
  ],
  [
    'rename a resource, and the parent key of its children',
    {
      before: `  writers:\n    fields:\n      name: { type: string }\n  notes:\n    parent: writers\n`,
      after: `  authors:\n    renamed_from: writers\n    fields:\n      name: { type: string }\n  notes:\n    parent: authors\n`,
      want: {
        changes: ['~writers>authors', '~notes'],
        sources: { author_id: { kind: 'column', column: 'writer_id' } },
      },
    },
  ],
  [
    'rename a belongs-to relation',
    {
      before: `${AUTHORS}${POSTS}    relations:\n      writer: { resource: authors }\n`,
      after: `${AUTHORS}${POSTS}    relations:\n      author: { resource: authors, renamed_from: writer }\n`,
      want: { changes: ['~posts'], sources: { author_id: { kind: 'column', column: 'writer_id' } } },
    },
  ],
  [
    'a relation replaced by another suggests renamed_from on the relation',
    {
      before: `${AUTHORS}${POSTS}    relations:\n      writer: { resource: authors }\n`,
      after: `${AUTHORS}${POSTS}    relations:\n      author: { resource: authors }\n`,
      want: {
        problems: [
          'error MIGRATION_DATA_LOSS resources.posts.relations.author: column writer_id is no longer in resource "posts": the migration drops it from table posts with all its values; if it was renamed, declare it: did you mean renamed_from: writer on relation "author" of resource "posts"? Otherwise pass --allow-data-loss to accept the loss',
        ],
      },
    },
  ],
  [
    'a foreign key into a renamed table is unchanged',
    {
      before: `  writers:\n    fields:\n      name: { type: string }\n${POSTS}    relations:\n      author: { resource: writers }\n`,
      after: `  authors:\n    renamed_from: writers\n    fields:\n      name: { type: string }\n${POSTS}    relations:\n      author: { resource: authors }\n`,
      want: { changes: ['~writers>authors'] },
    },
  ],
  [
    'add a resource that references an existing one, and a relation to it',
    {
      before: `${AUTHORS}${POSTS}`,
      after: `${AUTHORS}${POSTS}    relations:\n      review: { resource: reviews }\n  reviews:\n    relations:\n      author: { resource: authors, on_delete: cascade }\n`,
      want: { changes: ['+reviews', '~posts'], sources: { review_id: { kind: 'new' } } },
    },
  ],
  [
    'remove a resource: data loss',
    {
      before: `${AUTHORS}  coupons:\n    fields:\n      code: { type: string }\n`,
      after: AUTHORS,
      want: {
        problems: [
          'error MIGRATION_DATA_LOSS resources: resource "coupons" is no longer in the manifest: the migration drops table coupons with all its rows; pass --allow-data-loss to accept the loss',
        ],
      },
    },
  ],
  [
    'remove resources: those referencing others are dropped first',
    {
      before: `${AUTHORS}${POSTS}    relations:\n      author: { resource: authors }\n  comments:\n    parent: posts\n`,
      after: `  tags:\n    fields:\n      label: { type: string }\n`,
      allowDataLoss: true,
      want: {
        changes: ['+tags', '-comments', '-posts', '-authors'],
        dataLoss: ['table authors (all its rows)', 'table comments (all its rows)', 'table posts (all its rows)'],
      },
    },
  ],
  [
    'a resource removed and one with the same columns added: did you mean renamed_from',
    {
      before: `${AUTHORS}`,
      after: `  writers:\n    fields:\n      name: { type: string, required: true }\n`,
      want: {
        problems: [
          'error MIGRATION_DATA_LOSS resources.writers: resource "authors" is no longer in the manifest: the migration drops table authors with all its rows; if it was renamed, declare it: did you mean renamed_from: authors on resource "writers"? Otherwise pass --allow-data-loss to accept the loss',
        ],
      },
    },
  ],
  [
    'a lossless type change',
    {
      before: `${POSTS}      price: { type: integer }\n`,
      after: `${POSTS}      price: { type: number }\n`,
      want: { changes: ['~posts'], dataLoss: [], problems: [] },
    },
  ],
  [
    'a narrowing type change needs --allow-data-loss',
    {
      before: `${POSTS}      price: { type: number }\n`,
      after: `${POSTS}      price: { type: integer }\n`,
      want: {
        problems: [
          'error MIGRATION_DATA_LOSS resources.posts.fields.price: field "price" of resource "posts" changes type from number to integer: stored values that are not valid integers are lost; pass --allow-data-loss to accept the loss',
        ],
      },
    },
  ],
  [
    'a narrowing type change with --allow-data-loss',
    {
      before: `${POSTS}      price: { type: number }\n`,
      after: `${POSTS}      price: { type: integer }\n`,
      allowDataLoss: true,
      want: { dataLoss: ['column posts.price: number → integer (values that do not convert are lost)'] },
    },
  ],
  [
    'add unique, change a default, change on_delete',
    {
      before: `${AUTHORS}${POSTS}      slug: { type: string }\n      status: { type: string, default: draft }\n    relations:\n      author: { resource: authors }\n`,
      after: `${AUTHORS}${POSTS}      slug: { type: string, unique: true }\n      status: { type: string, default: published }\n    relations:\n      author: { resource: authors, on_delete: cascade }\n`,
      want: { changes: ['~posts'], problems: [] },
    },
  ],
  [
    'sort and filter changes add and drop indexes',
    {
      before: `${POSTS}      rank: { type: integer }\n    sort: [title]\n`,
      after: `${POSTS}      rank: { type: integer }\n    sort: [rank]\n    filter: { rank: [eq] }\n`,
      want: { changes: ['~posts'] },
    },
  ],
  [
    'a backfill nothing uses',
    {
      before: `${POSTS}      summary: { type: string }\n`,
      after: `${POSTS}      summary: { type: string }\n`,
      backfills: [{ table: 'posts', column: 'summary', value: 'x' }],
      want: {
        problems: [
          'error MIGRATION_BACKFILL_UNUSED resources.posts.fields.summary: --backfill posts.summary=x is not needed: column summary of table posts is neither added to existing rows nor made NOT NULL by this migration; remove the option',
        ],
      },
    },
  ],
  [
    'a backfill of a column that stays as it is, in a changed table',
    {
      before: POSTS,
      after: `${POSTS}      summary: { type: string }\n`,
      backfills: [{ table: 'posts', column: 'title', value: 'x' }],
      want: {
        problems: [
          'error MIGRATION_BACKFILL_UNUSED resources.posts.fields.title: --backfill posts.title=x is not needed: column title of table posts is neither added to existing rows nor made NOT NULL by this migration; remove the option',
        ],
      },
    },
  ],
]

describe('planMigration', () => {
  it.each(cases)('%s', (_name, { before, after, backfills = [], allowDataLoss = false, want }) => {
    const previous = storageOf(before || `  placeholders:\n    fields:\n      x: { type: string }\n`)
    const next = storageOf(after)
    const { plan, problems } = planMigration({
      before: before === '' ? { restmint_snapshot: 1, tables: [] } : previous.snapshot,
      after: next.snapshot,
      origins: next.origins,
      backfills: backfills.map((backfill) => ({
        ...backfill,
        option: `${backfill.table}.${backfill.column}=${String(backfill.value)}`,
      })),
      allowDataLoss,
    })
    if (want.problems !== undefined) {
      expect(
        problems.map((problem) => `${problem.severity} ${problem.code} ${problem.path.join('.')}: ${problem.message}`),
      ).toEqual(want.problems)
    }
    if (want.problems?.some((problem) => problem.startsWith('error'))) {
      expect(plan).toBeNull()
      return
    }
    expect(plan).not.toBeNull()
    if (want.changes !== undefined) expect(plan!.changes.map(describeChange)).toEqual(want.changes)
    if (want.sources !== undefined) {
      const sources = Object.assign({}, ...plan!.changes.map((change) => change.sources)) as Record<
        string,
        ColumnSource
      >
      for (const [column, source] of Object.entries(want.sources)) expect(sources[column], column).toEqual(source)
    }
    if (want.dataLoss !== undefined) expect([...plan!.dataLoss].sort()).toEqual(want.dataLoss)
    expect(plan!.after).toBe(next.snapshot)
  })
})

function describeChange(change: TableChange): string {
  if (change.before === null) return `+${change.after!.name}`
  if (change.after === null) return `-${change.before.name}`
  return change.before.name === change.after.name
    ? `~${change.after.name}`
    : `~${change.before.name}>${change.after.name}`
}
