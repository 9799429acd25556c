import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { renderMigrationSql } from '../../generator/migrate/render-migration-sql.js'
import type { ColumnSource, MigrationPlan, TableChange } from '../../runtime/migrations/migration-plan.js'
import { snapshotTables } from '../../runtime/migrations/storage-snapshot.js'
import { RowReferencedError, UniqueViolationError } from '../../runtime/storage/storage-errors.js'
import type { Storage } from '../../runtime/storage/storage.js'
import type { Row, TableDefinition } from '../../runtime/table-definition.js'
import { applyMigrationSql } from '../support/apply-migration-sql.js'
import {
  column,
  createTestDatabases,
  defineTables,
  DIALECTS,
  foreignKey,
  optional,
  table,
  type Dialect,
  type TableSpec,
} from '../storage/storage-fixtures.js'
import { readSchemaShape } from './read-schema-shape.js'

const databases = createTestDatabases()
afterEach(() => databases.closeOpened())
afterAll(() => databases.dropAll())

const AUTHORS: TableSpec = { name: 'authors', columns: [column('name', 'string', { unique: true })] }
const POSTS: TableSpec = {
  name: 'posts',
  columns: [
    column('title', 'string'),
    optional('price', 'integer'),
    foreignKey('author_id', 'authors', 'restrict'),
    column('published', 'boolean', { default: false }),
  ],
  indexes: [{ columns: ['price', 'id'] }],
}

/** `[before table, after table, sources]` for each table change, in the plan's order. */
type ChangeSpec = readonly [string | null, string | null, Record<string, ColumnSource>?]

interface Migrated {
  readonly storage: Storage
  readonly tables: TableDefinition[]
  /** The rows `seed` wrote, by table, as the old storage returned them. */
  readonly seeded: Record<string, Row[]>
}

/**
 * Creates a database with prepare() for `before`, writes `rows` through the
 * storage, applies the rendered migration, checks the database now has
 * exactly the tables, constraints and indexes prepare() creates for `after`
 * (read before prepare() could add any), and opens it with `after`: its
 * prepare() must find no difference.
 */
async function migrate(
  dialect: Dialect,
  before: readonly TableSpec[],
  after: readonly TableSpec[],
  changes: readonly ChangeSpec[],
  rows: Record<string, Row[]>,
  options: { readonly delete?: Record<string, number> } = {},
): Promise<Migrated> {
  const beforeTables = defineTables(before)
  const afterTables = defineTables(after)
  const database = databases.newDatabase(dialect)
  const old = database.open(beforeTables)
  await old.prepare()
  const seeded: Record<string, Row[]> = {}
  for (const [name, values] of Object.entries(rows)) {
    seeded[name] = []
    for (const row of values) seeded[name].push(await old.insert(table(beforeTables, name), row))
  }
  for (const [name, id] of Object.entries(options.delete ?? {})) await old.delete(table(beforeTables, name), id)
  await databases.closeOpened()

  await applyMigrationSql(
    dialect,
    database.location,
    renderMigrationSql(plan(beforeTables, afterTables, changes), dialect),
  )

  const reference = databases.newDatabase(dialect)
  await reference.open(afterTables).prepare()
  expect(await readSchemaShape(dialect, database.location)).toEqual(await readSchemaShape(dialect, reference.location))
  const storage = database.open(afterTables)
  await storage.prepare()
  return { storage, tables: afterTables, seeded }
}

function plan(before: TableDefinition[], after: TableDefinition[], changes: readonly ChangeSpec[]): MigrationPlan {
  const beforeSnapshot = snapshotTables(before)
  const afterSnapshot = snapshotTables(after)
  const find = (tables: typeof beforeSnapshot.tables, name: string | null) =>
    name === null ? null : tables.find((candidate) => candidate.name === name)!
  return {
    before: beforeSnapshot,
    after: afterSnapshot,
    changes: changes.map(([from, to, sources]): TableChange => ({
      before: find(beforeSnapshot.tables, from),
      after: find(afterSnapshot.tables, to),
      sources: sources ?? {},
    })),
    dataLoss: [],
  }
}

function withColumns(spec: TableSpec, columns: TableSpec['columns'], indexes = spec.indexes): TableSpec {
  return { ...spec, columns, ...(indexes === undefined ? {} : { indexes }) }
}

const AUTHOR_ROWS = { authors: [{ name: 'Ada' }, { name: 'Grace' }] }
const POST_ROWS = {
  ...AUTHOR_ROWS,
  posts: [
    { title: 'First', price: 10, author_id: 1, published: true },
    { title: 'Second', price: null, author_id: 2, published: false },
  ],
}

async function readAll(migrated: Migrated, name: string): Promise<Row[]> {
  const { rows } = await migrated.storage.list(table(migrated.tables, name), { scope: {}, limit: 100 })
  return rows
}

describe.each(DIALECTS)('%s: migration SQL', (dialect) => {
  it('adds a resource with its foreign key and indexes', async () => {
    const comments: TableSpec = {
      name: 'comments',
      columns: [column('body', 'string'), foreignKey('post_id', 'posts', 'cascade')],
      indexes: [{ columns: ['body', 'id'] }],
    }
    const migrated = await migrate(
      dialect,
      [AUTHORS, POSTS],
      [AUTHORS, POSTS, comments],
      [[null, 'comments']],
      POST_ROWS,
    )
    expect(await readAll(migrated, 'posts')).toEqual(migrated.seeded.posts)
    const comment = await migrated.storage.insert(table(migrated.tables, 'comments'), { body: 'Nice', post_id: 1 })
    await migrated.storage.delete(table(migrated.tables, 'posts'), 1)
    expect(await migrated.storage.find(table(migrated.tables, 'comments'), comment.id as number)).toBeUndefined()
  })

  it('removes a resource', async () => {
    const tags: TableSpec = { name: 'tags', columns: [column('label', 'string')] }
    const migrated = await migrate(dialect, [AUTHORS, tags], [AUTHORS], [['tags', null]], {
      ...AUTHOR_ROWS,
      tags: [{ label: 'x' }],
    })
    expect(await readAll(migrated, 'authors')).toEqual(migrated.seeded.authors)
  })

  it('adds an optional field, and required ones from a default or a backfill', async () => {
    const after = withColumns(POSTS, [
      ...POSTS.columns,
      optional('summary', 'string'),
      column('status', 'string', { default: "it's new" }),
      column('rating', 'number'),
    ])
    const migrated = await migrate(
      dialect,
      [AUTHORS, POSTS],
      [AUTHORS, after],
      [
        [
          'posts',
          'posts',
          { summary: { kind: 'new' }, status: { kind: 'new' }, rating: { kind: 'new', backfill: 2.5 } },
        ],
      ],
      POST_ROWS,
    )
    expect(await readAll(migrated, 'posts')).toEqual(
      migrated.seeded.posts!.map((row) => ({ ...row, summary: null, status: "it's new", rating: 2.5 })),
    )
  })

  it('removes a field', async () => {
    const after = withColumns(
      POSTS,
      POSTS.columns.filter((candidate) => candidate.name !== 'price'),
      [],
    )
    const migrated = await migrate(dialect, [AUTHORS, POSTS], [AUTHORS, after], [['posts', 'posts']], POST_ROWS)
    expect(await readAll(migrated, 'posts')).toEqual(migrated.seeded.posts!.map(({ price: _price, ...row }) => row))
  })

  it('renames a field, its unique constraint and indexes following it', async () => {
    const before: TableSpec = { ...AUTHORS, indexes: [{ columns: ['name', 'id'] }] }
    const after: TableSpec = {
      name: 'authors',
      columns: [column('full_name', 'string', { unique: true })],
      indexes: [{ columns: ['full_name', 'id'] }],
    }
    const migrated = await migrate(
      dialect,
      [before],
      [after],
      [['authors', 'authors', { full_name: { kind: 'column', column: 'name' } }]],
      AUTHOR_ROWS,
    )
    expect((await readAll(migrated, 'authors')).map((row) => row.full_name)).toEqual(['Ada', 'Grace'])
    await expect(migrated.storage.insert(table(migrated.tables, 'authors'), { full_name: 'Ada' })).rejects.toEqual(
      new UniqueViolationError('authors', 'full_name'),
    )
  })

  it('renames a resource another one references, keeping its ids', async () => {
    const writers: TableSpec = { ...AUTHORS, name: 'writers', indexes: [{ columns: ['name', 'id'] }] }
    const posts = withColumns(POSTS, [
      column('title', 'string'),
      optional('price', 'integer'),
      foreignKey('author_id', 'writers', 'restrict'),
      column('published', 'boolean', { default: false }),
    ])
    const migrated = await migrate(
      dialect,
      [{ ...AUTHORS, indexes: [{ columns: ['name', 'id'] }] }, POSTS],
      [writers, posts],
      [
        ['authors', 'writers'],
        ['posts', 'posts'],
      ],
      POST_ROWS,
    )
    expect(await readAll(migrated, 'writers')).toEqual(migrated.seeded.authors)
    await expect(migrated.storage.delete(table(migrated.tables, 'writers'), 1)).rejects.toBeInstanceOf(
      RowReferencedError,
    )
    const added = await migrated.storage.insert(table(migrated.tables, 'writers'), { name: 'Linus' })
    expect(added.id).toBe(3)
  })

  it('makes a field not nullable from a backfill, and another one nullable', async () => {
    const after = withColumns(POSTS, [
      column('title', 'string', { nullable: true }),
      column('price', 'integer'),
      foreignKey('author_id', 'authors', 'restrict'),
      column('published', 'boolean', { default: false }),
    ])
    const migrated = await migrate(
      dialect,
      [AUTHORS, POSTS],
      [AUTHORS, after],
      [['posts', 'posts', { price: { kind: 'column', column: 'price', backfill: 0 } }]],
      POST_ROWS,
    )
    expect((await readAll(migrated, 'posts')).map((row) => row.price)).toEqual([10, 0])
    const untitled = await migrated.storage.insert(table(migrated.tables, 'posts'), {
      title: null,
      price: 1,
      author_id: 1,
      published: false,
    })
    expect(untitled.title).toBeNull()
  })

  it('adds and removes unique', async () => {
    const before: TableSpec = {
      name: 'authors',
      columns: [column('name', 'string'), column('email', 'string', { unique: true })],
    }
    const after: TableSpec = {
      name: 'authors',
      columns: [column('name', 'string', { unique: true }), column('email', 'string')],
    }
    const migrated = await migrate(dialect, [before], [after], [['authors', 'authors']], {
      authors: [
        { name: 'Ada', email: 'a@example.com' },
        { name: 'Grace', email: 'g@example.com' },
      ],
    })
    const authors = table(migrated.tables, 'authors')
    await expect(migrated.storage.insert(authors, { name: 'Ada', email: 'x@example.com' })).rejects.toEqual(
      new UniqueViolationError('authors', 'name'),
    )
    await migrated.storage.insert(authors, { name: 'Linus', email: 'a@example.com' })
  })

  it('fails adding unique over duplicates, leaving the database as it was', async () => {
    const before: TableSpec = { name: 'authors', columns: [column('name', 'string')] }
    const database = databases.newDatabase(dialect)
    const beforeTables = defineTables([before])
    const storage = database.open(beforeTables)
    await storage.prepare()
    await storage.insert(beforeTables[0]!, { name: 'Ada' })
    await storage.insert(beforeTables[0]!, { name: 'Ada' })
    await databases.closeOpened()
    const shape = await readSchemaShape(dialect, database.location)
    const text = renderMigrationSql(plan(beforeTables, defineTables([AUTHORS]), [['authors', 'authors']]), dialect)

    await expect(applyMigrationSql(dialect, database.location, text)).rejects.toThrow(/unique|duplicate/i)

    expect(await readSchemaShape(dialect, database.location)).toEqual(shape)
    const reopened = database.open(beforeTables)
    await reopened.prepare()
    const { rows } = await reopened.list(beforeTables[0]!, { scope: {}, limit: 10 })
    expect(rows.map((row) => row.name)).toEqual(['Ada', 'Ada'])
  })

  it('converts every value of a widened type as the API would have written it', async () => {
    const numbers = [1.5, 3, -0.25, 0.1 + 0.2, 1e-7, 123456.789, -0]
    const before: TableSpec = {
      name: 'samples',
      columns: [
        column('count', 'integer'),
        column('amount', 'number'),
        column('flag', 'boolean'),
        column('day', 'date'),
        column('day_text', 'date'),
        column('moment', 'datetime'),
        column('count_text', 'integer'),
      ],
    }
    const after: TableSpec = {
      name: 'samples',
      columns: [
        column('count', 'number'),
        column('amount', 'string'),
        column('flag', 'string'),
        column('day', 'datetime'),
        column('day_text', 'string'),
        column('moment', 'string'),
        column('count_text', 'string'),
      ],
    }
    const rows = numbers.map((amount, index) => ({
      count: 40 + index,
      amount,
      flag: index % 2 === 0,
      day: `2026-11-2${index}`,
      day_text: `0099-01-0${index + 1}`,
      moment: `2026-11-24T10:00:0${index}.5+02:00`,
      count_text: -index * 1000,
    }))
    const migrated = await migrate(dialect, [before], [after], [['samples', 'samples']], { samples: rows })
    expect(await readAll(migrated, 'samples')).toEqual(
      migrated.seeded.samples!.map((row, index) => ({
        ...row,
        count: 40 + index,
        amount: String(numbers[index]),
        flag: String(index % 2 === 0),
        day: `2026-11-2${index}T00:00:00.000Z`,
        moment: `2026-11-24T08:00:0${index}.500Z`,
        count_text: String(-index * 1000),
      })),
    )
  })

  it('narrows types: values that convert are kept, the others become NULL or the backfill', async () => {
    const before: TableSpec = {
      name: 'samples',
      columns: [
        optional('code', 'string'),
        column('ratio', 'number'),
        optional('answer', 'string'),
        optional('day', 'string'),
        optional('moment', 'string'),
        column('seen', 'datetime'),
        column('level', 'string'),
      ],
    }
    const after: TableSpec = {
      name: 'samples',
      columns: [
        optional('code', 'integer'),
        optional('ratio', 'integer'),
        optional('answer', 'boolean'),
        optional('day', 'date'),
        optional('moment', 'datetime'),
        column('seen', 'date'),
        column('level', 'number'),
      ],
    }
    const migrated = await migrate(
      dialect,
      [before],
      [after],
      [['samples', 'samples', { level: { kind: 'column', column: 'level', backfill: -1 } }]],
      {
        samples: [
          {
            code: '42',
            ratio: 3,
            answer: 'true',
            day: '2026-02-28',
            moment: '2026-11-24T10:00:00+02:00',
            seen: '2026-11-24T23:30:00-02:00',
            level: '1.5e2',
          },
          {
            code: 'abc',
            ratio: 1.5,
            answer: 'yes',
            day: '2026-02-30',
            moment: 'soon',
            seen: '2026-11-24T00:00:00Z',
            level: 'high',
          },
          {
            code: '-9007199254740991',
            ratio: -2,
            answer: 'false',
            day: '0000-01-01',
            moment: '2026-11-24 10:00:00Z',
            seen: '2026-11-24T00:00:00Z',
            level: '7',
          },
        ],
      },
    )
    const converted = (await readAll(migrated, 'samples')).map(
      ({ id: _id, created_at: _c, updated_at: _u, ...row }) => row,
    )
    expect(converted).toEqual([
      {
        code: 42,
        ratio: 3,
        answer: true,
        day: '2026-02-28',
        moment: '2026-11-24T08:00:00.000Z',
        seen: '2026-11-25',
        level: 150,
      },
      { code: null, ratio: null, answer: null, day: null, moment: null, seen: '2026-11-24', level: -1 },
      {
        code: -9007199254740991,
        ratio: -2,
        answer: false,
        day: null,
        moment: '2026-11-24T10:00:00.000Z',
        seen: '2026-11-24',
        level: 7,
      },
    ])
  })

  it('adds a relation, removes one and changes on_delete', async () => {
    const before = withColumns(POSTS, [...POSTS.columns, foreignKey('editor_id', 'authors', 'restrict', true)])
    const after = withColumns(POSTS, [
      column('title', 'string'),
      optional('price', 'integer'),
      foreignKey('author_id', 'authors', 'cascade'),
      column('published', 'boolean', { default: false }),
      foreignKey('reviewer_id', 'authors', 'restrict', true),
    ])
    const migrated = await migrate(dialect, [AUTHORS, before], [AUTHORS, after], [['posts', 'posts']], {
      ...AUTHOR_ROWS,
      posts: POST_ROWS.posts.map((row) => ({ ...row, editor_id: 2 })),
    })
    expect(await readAll(migrated, 'posts')).toEqual(
      migrated.seeded.posts!.map(({ editor_id: _editor, ...row }) => ({ ...row, reviewer_id: null })),
    )
    const posts = table(migrated.tables, 'posts')
    await migrated.storage.update(posts, 2, { reviewer_id: 1 })
    await expect(migrated.storage.delete(table(migrated.tables, 'authors'), 1)).rejects.toBeInstanceOf(
      RowReferencedError,
    )
    await migrated.storage.update(posts, 2, { reviewer_id: null })
    await migrated.storage.delete(table(migrated.tables, 'authors'), 1)
    expect((await readAll(migrated, 'posts')).map((row) => row.title)).toEqual(['Second'])
  })

  it('adds and drops indexes and changes a default', async () => {
    const after = withColumns(
      POSTS,
      [
        column('title', 'string'),
        optional('price', 'integer'),
        foreignKey('author_id', 'authors', 'restrict'),
        column('published', 'boolean', { default: true }),
      ],
      [{ columns: ['title', 'id'] }, { columns: ['published'] }],
    )
    const migrated = await migrate(dialect, [AUTHORS, POSTS], [AUTHORS, after], [['posts', 'posts']], POST_ROWS)
    expect(await readAll(migrated, 'posts')).toEqual(migrated.seeded.posts)
  })

  it('never reuses the id of a row deleted before the migration', async () => {
    // The new default makes SQLite rebuild the table.
    const after = withColumns(POSTS, [
      column('title', 'string'),
      optional('price', 'integer'),
      foreignKey('author_id', 'authors', 'restrict'),
      column('published', 'boolean', { default: true }),
    ])
    const migrated = await migrate(dialect, [AUTHORS, POSTS], [AUTHORS, after], [['posts', 'posts']], POST_ROWS, {
      delete: { posts: 2 },
    })
    const posts = table(migrated.tables, 'posts')
    const added = await migrated.storage.insert(posts, { title: 'New', price: 2, author_id: 1, published: true })
    expect(added.id).toBe(3)
  })
})

describe('migration SQL text', () => {
  const before = defineTables([AUTHORS, POSTS])
  const after = defineTables([
    AUTHORS,
    withColumns(POSTS, [
      column('headline', 'string', { unique: true }),
      column('price', 'number', { nullable: true }),
      foreignKey('author_id', 'authors', 'restrict'),
      column('published', 'boolean', { default: false }),
      column('summary', 'string', { default: "it's" }),
    ]),
  ])
  const migration = plan(before, after, [['posts', 'posts', { headline: { kind: 'column', column: 'title' } }]])

  it('is readable SQL for SQLite', () => {
    expect(renderMigrationSql(migration, 'sqlite')).toBe(SQLITE_GOLDEN)
  })

  it('is readable SQL for PostgreSQL', () => {
    expect(renderMigrationSql(migration, 'postgres')).toBe(POSTGRES_GOLDEN)
  })
})

const SQLITE_GOLDEN = `-- restmint migration: alter table posts: add summary (string), rename title to headline, headline unique, price integer → number

-- "posts" is rebuilt: SQLite cannot alter its columns in place (https://www.sqlite.org/lang_altertable.html#otheralter)
create table "new_posts" (
  "id" integer not null primary key autoincrement,
  "headline" text not null,
  "price" real,
  "author_id" integer not null,
  "published" integer default 0 not null,
  "summary" text default 'it''s' not null,
  "created_at" text not null,
  "updated_at" text not null,
  constraint "posts_headline_key" unique ("headline"),
  constraint "posts_author_id_fkey" foreign key ("author_id") references "authors" ("id") on delete restrict
);
insert into sqlite_sequence (name, seq) select 'new_posts', seq from sqlite_sequence where name = 'posts';
insert into "new_posts" ("id", "headline", "price", "author_id", "published", "summary", "created_at", "updated_at")
select
  "id",
  "title",
  cast("price" as real),
  "author_id",
  "published",
  'it''s',
  "created_at",
  "updated_at"
from "posts";
drop table "posts";
alter table "new_posts" rename to "posts";
create index "posts_author_id_idx" on "posts" ("author_id");
create index "posts_price__id_idx" on "posts" ("price", "id");
`
const POSTGRES_GOLDEN = `-- restmint migration: alter table posts: add summary (string), rename title to headline, headline unique, price integer → number

drop index "posts_price__id_idx";
alter table "posts" rename column "title" to "headline";
alter table "posts" alter column "price" type double precision using "price"::double precision;
alter table "posts" add column "summary" text default 'it''s' not null;
alter table "posts" add constraint "posts_headline_key" unique ("headline");
create index "posts_price__id_idx" on "posts" ("price" nulls first, "id");
`
