/**
 * Seeds the query benchmark's database: authors, categories, posts, tags and
 * the posts' tags (post_tags) of the example manifest (generated/schema.ts). The tables are created by restmint
 * itself (`createStorage(url, allTables).prepare()`), so the benchmark runs on
 * exactly the schema and indexes the generated server uses; the rows are then
 * bulk-inserted directly through the driver, in one transaction.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import { createStorage } from 'restmint/runtime'
import { allTables } from '../generated/schema.js'

export interface SeedSizes {
  readonly posts: number
  readonly authors: number
  readonly categories: number
}

interface SeedRows {
  readonly authors: { name: string; email: string; created_at: string; updated_at: string }[]
  readonly categories: { name: string; created_at: string; updated_at: string }[]
  readonly posts: {
    title: string
    content: string
    price: number
    status: 'draft' | 'published'
    published_at: string | null
    author_id: number | null
    category_id: number
    created_at: string
    updated_at: string
  }[]
  readonly tags: { name: string; created_at: string; updated_at: string }[]
  readonly postTags: { post_id: number; tag_id: number; created_at: string; updated_at: string }[]
}

/** Tags `tag-1` … `tag-50`; every post has TAGS_PER_POST of them, so each tag is on about 1 post in 10. */
const TAGS = 50
const TAGS_PER_POST = 5

const EPOCH = Date.parse('2021-01-01T00:00:00.000Z')
const SPAN = 4 * 365 * 24 * 3600 * 1000

/**
 * Deterministic rows: prices 0..1000 with cents, created_at spread over four
 * years (not in id order), every post in a category, 1 in 50 without author,
 * every post with five distinct tags.
 */
function makeRows(sizes: SeedSizes): SeedRows {
  const random = mulberry32(20260101)
  const at = (time: number) => new Date(time).toISOString()
  const authors = Array.from({ length: sizes.authors }, (_, index) => {
    const created = EPOCH + Math.floor(random() * SPAN)
    return {
      name: `Author ${index + 1}`,
      email: `author${index + 1}@example.com`,
      created_at: at(created),
      updated_at: at(created),
    }
  })
  const categories = Array.from({ length: sizes.categories }, (_, index) => ({
    name: `Category ${index + 1}`,
    created_at: at(EPOCH),
    updated_at: at(EPOCH),
  }))
  const posts = Array.from({ length: sizes.posts }, (_, index) => {
    const created = EPOCH + Math.floor(random() * SPAN)
    const published = random() < 0.7
    return {
      title: `Post number ${index + 1}`,
      content: `Body of post ${index + 1}: a paragraph of sample text that stands for the content of a blog post.`,
      price: Math.round(random() * 100_000) / 100,
      status: published ? ('published' as const) : ('draft' as const),
      published_at: published ? at(created + 3_600_000) : null,
      author_id: random() < 0.02 ? null : 1 + Math.floor(random() * sizes.authors),
      category_id: 1 + Math.floor(random() * sizes.categories),
      created_at: at(created),
      updated_at: at(created + 7_200_000),
    }
  })
  const tags = Array.from({ length: TAGS }, (_, index) => ({
    name: `tag-${index + 1}`,
    created_at: at(EPOCH),
    updated_at: at(EPOCH),
  }))
  // Post i gets tags (7i + 11k) mod 50 + 1 for k < 5: five distinct ones, as 11k mod 50 are.
  const postTags = posts.flatMap((post, index) =>
    Array.from({ length: TAGS_PER_POST }, (_, link) => ({
      post_id: index + 1,
      tag_id: ((index * 7 + link * 11) % TAGS) + 1,
      created_at: post.created_at,
      updated_at: post.created_at,
    })),
  )
  return { authors, categories, posts, tags, postTags }
}

/** Creates the SQLite file's tables through restmint, then inserts the rows. */
export async function seedSqlite(file: string, sizes: SeedSizes): Promise<void> {
  const storage = createStorage(`sqlite:${file}`, allTables)
  try {
    await storage.prepare()
  } finally {
    await storage.close()
  }
  const rows = makeRows(sizes)
  const database = new Database(file)
  try {
    const insertAuthor = database.prepare(
      'insert into authors (name, email, created_at, updated_at) values (@name, @email, @created_at, @updated_at)',
    )
    const insertCategory = database.prepare(
      'insert into categories (name, created_at, updated_at) values (@name, @created_at, @updated_at)',
    )
    const insertPost = database.prepare(
      `insert into posts (title, content, price, status, published_at, author_id, category_id, created_at, updated_at)
       values (@title, @content, @price, @status, @published_at, @author_id, @category_id, @created_at, @updated_at)`,
    )
    const insertTag = database.prepare(
      'insert into tags (name, created_at, updated_at) values (@name, @created_at, @updated_at)',
    )
    const insertPostTag = database.prepare(
      'insert into post_tags (post_id, tag_id, created_at, updated_at) values (@post_id, @tag_id, @created_at, @updated_at)',
    )
    database.transaction(() => {
      for (const row of rows.authors) insertAuthor.run(row)
      for (const row of rows.categories) insertCategory.run(row)
      for (const row of rows.posts) insertPost.run(row)
      for (const row of rows.tags) insertTag.run(row)
      for (const row of rows.postTags) insertPostTag.run(row)
    })()
    database.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    database.close()
  }
}

/** Creates the tables in `schema` through restmint, then inserts the rows with unnest() batches and vacuums. */
export async function seedPostgres(url: string, schema: string, sizes: SeedSizes): Promise<void> {
  const storage = createStorage(url, allTables, { schema })
  try {
    await storage.prepare()
  } finally {
    await storage.close()
  }
  const rows = makeRows(sizes)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const table = (name: string) => `"${schema}"."${name}"`
  try {
    await client.query('begin')
    await client.query(
      `insert into ${table('authors')} (name, email, created_at, updated_at)
       select * from unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[])`,
      columnsOf(rows.authors, ['name', 'email', 'created_at', 'updated_at']),
    )
    await client.query(
      `insert into ${table('categories')} (name, created_at, updated_at)
       select * from unnest($1::text[], $2::timestamptz[], $3::timestamptz[])`,
      columnsOf(rows.categories, ['name', 'created_at', 'updated_at']),
    )
    const postColumns = [
      'title',
      'content',
      'price',
      'status',
      'published_at',
      'author_id',
      'category_id',
      'created_at',
      'updated_at',
    ] as const
    for (let start = 0; start < rows.posts.length; start += 20_000) {
      await client.query(
        `insert into ${table('posts')} (${postColumns.join(', ')})
         select * from unnest($1::text[], $2::text[], $3::float8[], $4::text[], $5::timestamptz[],
                              $6::int8[], $7::int8[], $8::timestamptz[], $9::timestamptz[])`,
        columnsOf(rows.posts.slice(start, start + 20_000), postColumns),
      )
    }
    await client.query(
      `insert into ${table('tags')} (name, created_at, updated_at)
       select * from unnest($1::text[], $2::timestamptz[], $3::timestamptz[])`,
      columnsOf(rows.tags, ['name', 'created_at', 'updated_at']),
    )
    for (let start = 0; start < rows.postTags.length; start += 100_000) {
      await client.query(
        `insert into ${table('post_tags')} (post_id, tag_id, created_at, updated_at)
         select * from unnest($1::int8[], $2::int8[], $3::timestamptz[], $4::timestamptz[])`,
        columnsOf(rows.postTags.slice(start, start + 100_000), ['post_id', 'tag_id', 'created_at', 'updated_at']),
      )
    }
    await client.query('commit')
    // The steady state of a live table, reached now rather than whenever autovacuum gets to it mid-run:
    // statistics for the planner, and a visibility map, without which count(*) cannot use an
    // index-only scan (a sequential scan instead, about 4 times slower here).
    await client.query(
      `vacuum (analyze) ${['authors', 'categories', 'posts', 'tags', 'post_tags'].map(table).join(', ')}`,
    )
  } finally {
    await client.end()
  }
}

/** Drops the benchmark's PostgreSQL schema and everything in it. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`drop schema if exists "${schema}" cascade`)
  } finally {
    await client.end()
  }
}

function columnsOf<T extends object, K extends keyof T>(rows: readonly T[], names: readonly K[]): unknown[][] {
  return names.map((name) => rows.map((row) => row[name]))
}

/** A small seeded PRNG, so every run benchmarks the same data. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
