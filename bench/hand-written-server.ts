/**
 * The query benchmark's baseline: `GET /v2/posts` written by hand as a plain
 * Fastify route over prepared statements (better-sqlite3, or `pg` named
 * statements), answering byte-for-byte the JSON the generated server answers
 * for the benchmarked URLs: same envelope, same links, same cursor format,
 * same embedded relations. It supports what those URLs use (a `price >=`
 * filter, a filter on the name of a post's tags as `IN` subqueries, sort by
 * created_at either way or none, offset pages, include of author and
 * category, each batched as one `IN` query, or of tags, one join of
 * post_tags and tags for the page) and rejects anything else with 400, as a
 * careful hand-written endpoint would.
 */
import { createHmac } from 'node:crypto'
import Database from 'better-sqlite3'
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'

export type HandWrittenDatabase =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string }

/**
 * How the routes reach the database: `statements`, SQL text written by hand and prepared once (the strictest
 * baseline); `kysely`, Kysely's query builder over its stock dialects, as a team writing Fastify + Kysely
 * routes by hand would (issue 17 measures rows g and h against these).
 */
export type HandWrittenQueries = 'statements' | 'kysely'

type Row = Record<string, unknown>
type Direction = 'asc' | 'desc' | null

interface ListRequest {
  readonly page: number
  readonly perPage: number
  readonly direction: Direction
  readonly minPrice: number | null
  /** `count=exact` (the default); false for `count=none`: no count statement, no total. */
  readonly counted: boolean
  /** Only posts with a tag of this name. */
  readonly tagName: string | null
  readonly includeAuthor: boolean
  readonly includeCategory: boolean
  /** Whether author was named before category in `include` (embedding order). */
  readonly authorFirst: boolean
  /** `include=tags`, alone. */
  readonly includeTags: boolean
}

/** What each database answers; the route around it is shared. */
interface PostQueries {
  page(request: ListRequest): Promise<{ rows: Row[]; total: number | null }>
  /** Related rows by id, one statement each; both run at once where the driver allows. */
  related(authorIds: number[] | null, categoryIds: number[] | null): Promise<[Row[], Row[]]>
  /** The tags of the posts `postIds`, each with its post's id as `post_id`, by post then tag id: one statement. */
  tagsOf(postIds: number[]): Promise<Row[]>
  close(): Promise<void>
}

const POST_COLUMNS =
  'id, title, content, price, status, published_at, owner_sub, author_id, category_id, created_at, updated_at'
const AUTHOR_COLUMNS = 'id, name, email, created_at, updated_at'
const CATEGORY_COLUMNS = 'id, name, created_at, updated_at'
const TAG_COLUMNS = 'tags.id, tags.name, tags.created_at, tags.updated_at'
const KNOWN = new Set(['page', 'per_page', 'count', 'sort', 'include', 'filter[price][gte]', 'filter[tags.name][eq]'])
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/
const POSITIVE = /^[1-9]\d{0,14}$/

export async function buildHandWrittenServer(
  database: HandWrittenDatabase,
  style: HandWrittenQueries = 'statements',
): Promise<FastifyInstance> {
  const queries =
    style === 'kysely'
      ? kyselyQueries(database)
      : database.kind === 'sqlite'
        ? sqliteQueries(database.file)
        : postgresQueries(database.url, database.schema)
  const app = Fastify({ logger: false })
  app.addHook('onClose', () => queries.close())

  app.get('/v2/posts', async (request, reply) => {
    const list = parseListRequest(request.query as Record<string, string | string[]>, reply)
    if (list === null) return reply
    const { rows: fetched, total } = await queries.page(list)
    const more = fetched.length > list.perPage
    const rows = fetched.length > list.perPage ? fetched.slice(0, list.perPage) : fetched
    const last = rows[rows.length - 1]
    const nextCursor = more && last !== undefined ? encodeCursor(list, last) : null
    if (list.includeAuthor || list.includeCategory) await embed(queries, list, rows)
    if (list.includeTags) await embedTags(queries, rows)
    reply.header('cache-control', 'no-cache').header('vary', 'Accept')
    if (total === null) {
      return {
        data: rows,
        meta: { page: list.page, per_page: list.perPage, count: 'none', next_cursor: nextCursor },
        links: pageLinks(request.url, list.page, list.perPage, null, more),
      }
    }
    const totalPages = Math.ceil(total / list.perPage)
    return {
      data: rows,
      meta: {
        page: list.page,
        per_page: list.perPage,
        count: 'exact',
        total,
        total_pages: totalPages,
        next_cursor: nextCursor,
      },
      links: pageLinks(request.url, list.page, list.perPage, totalPages, more),
    }
  })
  await app.ready()
  return app
}

function parseListRequest(query: Record<string, string | string[]>, reply: FastifyReply): ListRequest | null {
  const fail = (detail: string): null => {
    void reply.code(400).type('application/problem+json').send({ status: 400, title: 'Bad Request', detail })
    return null
  }
  for (const name in query) if (!KNOWN.has(name)) return fail(`unknown query parameter ${name}`)
  const { page = '1', per_page: perPage = '20', count = 'exact', sort, include } = query
  if (count !== 'exact' && count !== 'none') return fail('count takes exact or none')
  const minPrice = query['filter[price][gte]']
  const tagName = query['filter[tags.name][eq]']
  if (typeof page !== 'string' || !POSITIVE.test(page)) return fail('page must be a positive integer')
  if (typeof perPage !== 'string' || !POSITIVE.test(perPage) || Number(perPage) > 100) {
    return fail('per_page must be an integer from 1 to 100')
  }
  let direction: Direction = null
  if (sort === 'created_at') direction = 'asc'
  else if (sort === '-created_at') direction = 'desc'
  else if (sort !== undefined) return fail('sort takes created_at or -created_at')
  if (minPrice !== undefined && (typeof minPrice !== 'string' || !NUMBER.test(minPrice))) {
    return fail('filter[price][gte] must be a number')
  }
  if (Array.isArray(tagName)) return fail('filter[tags.name][eq] must be given once')
  let includeAuthor = false
  let includeCategory = false
  let authorFirst = true
  const includeTags = include === 'tags'
  if (include !== undefined && !includeTags) {
    if (typeof include !== 'string') return fail('include must be given once')
    for (const path of include.split(',')) {
      if (path === 'author' && !includeAuthor) includeAuthor = true
      else if (path === 'category' && !includeCategory) {
        includeCategory = true
        if (!includeAuthor) authorFirst = false
      } else return fail('include takes author and category, each once, or tags alone')
    }
  }
  return {
    page: Number(page),
    perPage: Number(perPage),
    direction,
    minPrice: minPrice === undefined ? null : Number(minPrice),
    tagName: tagName ?? null,
    counted: count === 'exact',
    includeAuthor,
    includeCategory,
    authorFirst,
    includeTags,
  }
}

/** Embeds author and category: one `IN` statement per relation for the whole page. */
async function embed(queries: PostQueries, list: ListRequest, rows: Row[]): Promise<void> {
  const authorIds = list.includeAuthor ? distinctIds(rows, 'author_id') : null
  const categoryIds = list.includeCategory ? distinctIds(rows, 'category_id') : null
  const [authors, categories] = await queries.related(authorIds, categoryIds)
  const authorById = byId(authors)
  const categoryById = byId(categories)
  const setAuthor = (row: Row) => (row.author = authorById.get(row.author_id as number) ?? null)
  const setCategory = (row: Row) => (row.category = categoryById.get(row.category_id as number) ?? null)
  for (const row of rows) {
    if (list.authorFirst) {
      if (list.includeAuthor) setAuthor(row)
      if (list.includeCategory) setCategory(row)
    } else {
      setCategory(row)
      if (list.includeAuthor) setAuthor(row)
    }
  }
}

/** Embeds each post's tags (an array, empty when it has none), from one statement for the whole page. */
async function embedTags(queries: PostQueries, rows: Row[]): Promise<void> {
  if (rows.length === 0) return
  const byPost = new Map<unknown, Row[]>()
  for (const { post_id: postId, ...tag } of await queries.tagsOf(rows.map((row) => row.id as number))) {
    const tags = byPost.get(postId)
    if (tags === undefined) byPost.set(postId, [tag])
    else tags.push(tag)
  }
  for (const row of rows) row.tags = byPost.get(row.id) ?? []
}

function distinctIds(rows: readonly Row[], column: string): number[] {
  const ids = new Set<number>()
  for (const row of rows) {
    const id = row[column]
    if (typeof id === 'number') ids.add(id)
  }
  return [...ids]
}

function byId(rows: readonly Row[]): Map<number, Row> {
  const map = new Map<number, Row>()
  for (const row of rows) map.set(row.id as number, row)
  return map
}

// ------------------------------------------------------------------ envelope: the generated server's formats

/** The secret both benchmarked servers sign cursors with, so their bodies are identical. */
export const BENCH_CURSOR_SECRET = 'restmint benchmark'

/** The keyset cursor in the generated server's format (base64url payload, HMAC), for the same collection and query shape. */
function encodeCursor(list: ListRequest, last: Row): string {
  const sort = list.direction === null ? [] : [{ column: 'created_at', direction: list.direction }]
  const filters = [
    ...(list.minPrice === null ? [] : [{ column: 'price', operator: 'gte', value: list.minPrice }]),
    ...(list.tagName === null
      ? []
      : [
          {
            column: 'name',
            through: [
              { table: 'post_tags', column: 'post_id', outerColumn: 'id' },
              { table: 'tags', column: 'id', outerColumn: 'tag_id' },
            ],
            operator: 'eq',
            value: list.tagName,
          },
        ]),
  ]
  const shape = JSON.stringify([JSON.stringify(['/v2/posts', {}]), sort, filters])
  const position = list.direction === null ? [last.id] : [last.created_at, last.id]
  const payload = JSON.stringify([shape, position])
  const signature = createHmac('sha256', BENCH_CURSOR_SECRET).update(payload).digest('base64url')
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${signature}`
}

/** The page links; with `count=none` (`totalPages` null) no last page, and a next one when the page had `more`. */
function pageLinks(url: string, page: number, perPage: number, totalPages: number | null, more: boolean) {
  const search = url.indexOf('?')
  const path = search === -1 ? url : url.slice(0, search)
  const query = search === -1 ? '' : url.slice(search + 1)
  const lastPage = Math.max(totalPages ?? 1, 1)
  const at = (target: number): string => {
    const params = new URLSearchParams(query)
    params.set('page', String(target))
    params.set('per_page', String(perPage))
    return `${path}?${params.toString()}`
  }
  if (totalPages === null) {
    return {
      self: at(page),
      first: at(1),
      prev: page > 1 ? at(page - 1) : null,
      next: more ? at(page + 1) : null,
      last: null,
    }
  }
  return {
    self: at(page),
    first: at(1),
    prev: page > 1 ? at(Math.min(page - 1, lastPage)) : null,
    next: page < lastPage ? at(page + 1) : null,
    last: at(lastPage),
  }
}

// ------------------------------------------------------------------ SQL

function orderBy(direction: Direction): string {
  return direction === null ? 'id asc' : `created_at ${direction}, id ${direction}`
}

/**
 * The WHERE clause of the list's filters, its values in order (`placeholder(n)` writes the n-th) and a key
 * naming the combination, for the prepared statements. The tag filter as the generated server writes it: a
 * page probes each post with a correlated EXISTS (stopping at its LIMIT), a count works out the set of posts
 * once with uncorrelated `IN` subqueries.
 */
function filtersOf(
  list: ListRequest,
  table: (name: string) => string,
  placeholder: (index: number) => string,
  semiJoin: 'probe' | 'set',
) {
  const conditions: string[] = []
  const values: unknown[] = []
  if (list.minPrice !== null) {
    values.push(list.minPrice)
    conditions.push(`price >= ${placeholder(values.length)}`)
  }
  if (list.tagName !== null) {
    values.push(list.tagName)
    const name = placeholder(values.length)
    conditions.push(
      semiJoin === 'probe'
        ? `exists (select 1 from ${table('post_tags')} pt where pt.post_id = posts.id and ` +
            `exists (select 1 from ${table('tags')} t where t.id = pt.tag_id and t.name = ${name}))`
        : `id in (select post_id from ${table('post_tags')} where tag_id in ` +
            `(select id from ${table('tags')} where name = ${name}))`,
    )
  }
  return {
    where: conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`,
    values,
    key: `${list.minPrice !== null}_${list.tagName !== null}_${semiJoin}`,
  }
}

function openSqlite(file: string): Database.Database {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  return db
}

function sqliteQueries(file: string): PostQueries {
  const db = openSqlite(file)
  const statements = new Map<string, Database.Statement>()
  const prepared = (key: string, text: () => string) => {
    let statement = statements.get(key)
    if (statement === undefined) statements.set(key, (statement = db.prepare(text())))
    return statement
  }
  const name = (table: string) => table
  const authors = db.prepare(`select ${AUTHOR_COLUMNS} from authors where id in (select value from json_each(?))`)
  const categories = db.prepare(
    `select ${CATEGORY_COLUMNS} from categories where id in (select value from json_each(?))`,
  )
  const tags = db.prepare(
    `select post_tags.post_id, ${TAG_COLUMNS} from post_tags join tags on tags.id = post_tags.tag_id
     where post_tags.post_id in (select value from json_each(?)) order by post_tags.post_id, tags.id`,
  )
  return {
    async page(list) {
      const limit = list.perPage + 1
      const offset = (list.page - 1) * list.perPage
      const { where, values, key } = filtersOf(list, name, () => '?', 'probe')
      const page = prepared(
        `page|${list.direction}|${key}`,
        () => `select ${POST_COLUMNS} from posts ${where} order by ${orderBy(list.direction)} limit ? offset ?`,
      )
      const rows = page.all(...values, limit, offset) as Row[]
      if (!list.counted) return { rows, total: null }
      const counting = filtersOf(list, name, () => '?', 'set')
      const count = prepared(`count|${counting.key}`, () => `select count(*) from posts ${counting.where}`).pluck()
      return { rows, total: count.get(...counting.values) as number }
    },
    async related(authorIds, categoryIds) {
      return [
        authorIds === null || authorIds.length === 0 ? [] : (authors.all(JSON.stringify(authorIds)) as Row[]),
        categoryIds === null || categoryIds.length === 0 ? [] : (categories.all(JSON.stringify(categoryIds)) as Row[]),
      ]
    },
    async tagsOf(postIds) {
      return tags.all(JSON.stringify(postIds)) as Row[]
    },
    async close() {
      db.close()
    },
  }
}

/** A pool whose rows read as the API answers them: bigint ids and counts as numbers, timestamps as ISO strings. */
function openPool(url: string): pg.Pool {
  const { INT8, TIMESTAMPTZ } = pg.types.builtins
  const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ, 'text')
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return Number
      if (oid === TIMESTAMPTZ) return (text: string) => (parseTimestamptz(text) as Date).toISOString()
      return pg.types.getTypeParser(oid, format ?? 'text')
    }) as pg.CustomTypesConfig['getTypeParser'],
  }
  const pool = new pg.Pool({ connectionString: url, types })
  pool.on('error', () => {})
  return pool
}

function postgresQueries(url: string, schema: string): PostQueries {
  const pool = openPool(url)
  const table = (name: string) => `"${schema}"."${name}"`
  const run = async (name: string, text: string, values: unknown[]): Promise<Row[]> =>
    (await pool.query<Row>({ name, text, values })).rows
  const authors = `select ${AUTHOR_COLUMNS} from ${table('authors')} where id = any($1)`
  const categories = `select ${CATEGORY_COLUMNS} from ${table('categories')} where id = any($1)`
  const tags =
    `select post_tags.post_id, ${TAG_COLUMNS} from ${table('post_tags')} as post_tags ` +
    `join ${table('tags')} as tags on tags.id = post_tags.tag_id ` +
    'where post_tags.post_id = any($1) order by post_tags.post_id, tags.id'
  return {
    async page(list) {
      const limit = list.perPage + 1
      const offset = (list.page - 1) * list.perPage
      const { where, values, key } = filtersOf(list, table, (index) => `$${index}`, 'probe')
      const counting = filtersOf(list, table, (index) => `$${index}`, 'set')
      const [limitAt, offsetAt] = [`$${values.length + 1}`, `$${values.length + 2}`]
      const [rows, counted] = await Promise.all([
        run(
          `posts_page_${list.direction ?? 'id'}_${key}`,
          `select ${POST_COLUMNS} from ${table('posts')} ${where} order by ${orderBy(list.direction)} ` +
            `limit ${limitAt} offset ${offsetAt}`,
          [...values, limit, offset],
        ),
        list.counted
          ? run(
              `posts_count_${counting.key}`,
              `select count(*) as total from ${table('posts')} ${counting.where}`,
              counting.values,
            )
          : null,
      ])
      return { rows, total: counted === null ? null : (counted[0]!.total as number) }
    },
    async related(authorIds, categoryIds) {
      return Promise.all([
        authorIds === null || authorIds.length === 0 ? [] : run('authors_by_id', authors, [authorIds]),
        categoryIds === null || categoryIds.length === 0 ? [] : run('categories_by_id', categories, [categoryIds]),
      ])
    },
    async tagsOf(postIds) {
      return run('tags_of_posts', tags, [postIds])
    },
    async close() {
      await pool.end()
    },
  }
}

/**
 * The same queries through Kysely's query builder, built per request as Kysely code is written, on its own
 * SqliteDialect (better-sqlite3) or PostgresDialect (pg).
 */
function kyselyQueries(database: HandWrittenDatabase): PostQueries {
  const kysely =
    database.kind === 'sqlite'
      ? new Kysely<any>({ dialect: new SqliteDialect({ database: openSqlite(database.file) }) })
      : new Kysely<any>({ dialect: new PostgresDialect({ pool: openPool(database.url) }) }).withSchema(database.schema)
  const postColumns = POST_COLUMNS.split(', ')
  const filtered = (list: ListRequest, semiJoin: 'probe' | 'set') =>
    kysely
      .selectFrom('posts')
      .$if(list.minPrice !== null, (query) => query.where('price', '>=', list.minPrice))
      .$if(list.tagName !== null, (query) =>
        query.where((eb) =>
          semiJoin === 'probe'
            ? eb.exists(
                eb
                  .selectFrom('post_tags as pt')
                  .select(eb.lit(1).as('one'))
                  .whereRef('pt.post_id', '=', 'posts.id')
                  .where((inner) =>
                    inner.exists(
                      inner
                        .selectFrom('tags as t')
                        .select(inner.lit(1).as('one'))
                        .whereRef('t.id', '=', 'pt.tag_id')
                        .where('t.name', '=', list.tagName),
                    ),
                  ),
              )
            : eb(
                'id',
                'in',
                eb
                  .selectFrom('post_tags')
                  .select('post_id')
                  .where('tag_id', 'in', eb.selectFrom('tags').select('id').where('name', '=', list.tagName)),
              ),
        ),
      )
  return {
    async page(list) {
      let page = filtered(list, 'probe').select(postColumns)
      page =
        list.direction === null
          ? page.orderBy('id')
          : page.orderBy('created_at', list.direction).orderBy('id', list.direction)
      const [rows, counted] = await Promise.all([
        page
          .limit(list.perPage + 1)
          .offset((list.page - 1) * list.perPage)
          .execute(),
        list.counted
          ? filtered(list, 'set')
              .select((eb) => eb.fn.countAll<number>().as('total'))
              .executeTakeFirstOrThrow()
          : null,
      ])
      return { rows, total: counted === null ? null : Number(counted.total) }
    },
    async related(authorIds, categoryIds) {
      return Promise.all([
        authorIds === null || authorIds.length === 0
          ? []
          : kysely.selectFrom('authors').select(AUTHOR_COLUMNS.split(', ')).where('id', 'in', authorIds).execute(),
        categoryIds === null || categoryIds.length === 0
          ? []
          : kysely
              .selectFrom('categories')
              .select(CATEGORY_COLUMNS.split(', '))
              .where('id', 'in', categoryIds)
              .execute(),
      ])
    },
    async tagsOf(postIds) {
      return kysely
        .selectFrom('post_tags')
        .innerJoin('tags', 'tags.id', 'post_tags.tag_id')
        .select(['post_tags.post_id', ...TAG_COLUMNS.split(', ')])
        .where('post_tags.post_id', 'in', postIds)
        .orderBy('post_tags.post_id')
        .orderBy('tags.id')
        .execute()
    },
    async close() {
      await kysely.destroy()
    },
  }
}
