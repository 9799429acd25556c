/**
 * The query benchmark's baseline: `GET /v2/posts` written by hand as a plain
 * Fastify route over prepared statements (better-sqlite3, or `pg` named
 * statements), answering byte-for-byte the JSON the generated server answers
 * for the benchmarked URLs: same envelope, same links, same cursor format,
 * same embedded relations. It supports what those URLs use (a `price >=`
 * filter, sort by created_at either way or none, offset pages, include of
 * author and category, each batched as one `IN` query) and rejects anything
 * else with 400, as a careful hand-written endpoint would.
 */
import { createHmac } from 'node:crypto'
import Database from 'better-sqlite3'
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import pg from 'pg'

export type HandWrittenDatabase =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string }

type Row = Record<string, unknown>
type Direction = 'asc' | 'desc' | null

interface ListRequest {
  readonly page: number
  readonly perPage: number
  readonly direction: Direction
  readonly minPrice: number | null
  readonly includeAuthor: boolean
  readonly includeCategory: boolean
  /** Whether author was named before category in `include` (embedding order). */
  readonly authorFirst: boolean
}

/** What each database answers; the route around it is shared. */
interface PostQueries {
  page(request: ListRequest): Promise<{ rows: Row[]; total: number }>
  /** Related rows by id, one statement each; both run at once where the driver allows. */
  related(authorIds: number[] | null, categoryIds: number[] | null): Promise<[Row[], Row[]]>
  close(): Promise<void>
}

const POST_COLUMNS =
  'id, title, content, price, status, published_at, owner_sub, author_id, category_id, created_at, updated_at'
const AUTHOR_COLUMNS = 'id, name, email, created_at, updated_at'
const CATEGORY_COLUMNS = 'id, name, created_at, updated_at'
const KNOWN = new Set(['page', 'per_page', 'sort', 'include', 'filter[price][gte]'])
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/
const POSITIVE = /^[1-9]\d{0,14}$/

export async function buildHandWrittenServer(database: HandWrittenDatabase): Promise<FastifyInstance> {
  const queries =
    database.kind === 'sqlite' ? sqliteQueries(database.file) : postgresQueries(database.url, database.schema)
  const app = Fastify({ logger: false })
  app.addHook('onClose', () => queries.close())

  app.get('/v2/posts', async (request, reply) => {
    const list = parseListRequest(request.query as Record<string, string | string[]>, reply)
    if (list === null) return reply
    const { rows: fetched, total } = await queries.page(list)
    const rows = fetched.length > list.perPage ? fetched.slice(0, list.perPage) : fetched
    const last = rows[rows.length - 1]
    const nextCursor = fetched.length > list.perPage && last !== undefined ? encodeCursor(list, last) : null
    if (list.includeAuthor || list.includeCategory) await embed(queries, list, rows)
    const totalPages = Math.ceil(total / list.perPage)
    reply.header('cache-control', 'no-cache').header('vary', 'Accept')
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
      links: pageLinks(request.url, list.page, list.perPage, totalPages),
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
  const { page = '1', per_page: perPage = '20', sort, include } = query
  const minPrice = query['filter[price][gte]']
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
  let includeAuthor = false
  let includeCategory = false
  let authorFirst = true
  if (include !== undefined) {
    if (typeof include !== 'string') return fail('include must be given once')
    for (const path of include.split(',')) {
      if (path === 'author' && !includeAuthor) includeAuthor = true
      else if (path === 'category' && !includeCategory) {
        includeCategory = true
        if (!includeAuthor) authorFirst = false
      } else return fail('include takes author and category, each once')
    }
  }
  return {
    page: Number(page),
    perPage: Number(perPage),
    direction,
    minPrice: minPrice === undefined ? null : Number(minPrice),
    includeAuthor,
    includeCategory,
    authorFirst,
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
  const filters = list.minPrice === null ? [] : [{ column: 'price', operator: 'gte', value: list.minPrice }]
  const shape = JSON.stringify([JSON.stringify(['/v2/posts', {}]), sort, filters])
  const position = list.direction === null ? [last.id] : [last.created_at, last.id]
  const payload = JSON.stringify([shape, position])
  const signature = createHmac('sha256', BENCH_CURSOR_SECRET).update(payload).digest('base64url')
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${signature}`
}

function pageLinks(url: string, page: number, perPage: number, totalPages: number) {
  const search = url.indexOf('?')
  const path = search === -1 ? url : url.slice(0, search)
  const query = search === -1 ? '' : url.slice(search + 1)
  const lastPage = Math.max(totalPages, 1)
  const at = (target: number): string => {
    const params = new URLSearchParams(query)
    params.set('page', String(target))
    params.set('per_page', String(perPage))
    return `${path}?${params.toString()}`
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

function sqliteQueries(file: string): PostQueries {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  const pages = new Map<string, Database.Statement>()
  for (const direction of [null, 'asc', 'desc'] as const) {
    for (const filtered of [false, true]) {
      const where = filtered ? 'where price >= ?' : ''
      pages.set(
        `${direction}|${filtered}`,
        db.prepare(`select ${POST_COLUMNS} from posts ${where} order by ${orderBy(direction)} limit ? offset ?`),
      )
    }
  }
  const countAll = db.prepare('select count(*) from posts').pluck()
  const countFiltered = db.prepare('select count(*) from posts where price >= ?').pluck()
  const authors = db.prepare(`select ${AUTHOR_COLUMNS} from authors where id in (select value from json_each(?))`)
  const categories = db.prepare(
    `select ${CATEGORY_COLUMNS} from categories where id in (select value from json_each(?))`,
  )
  return {
    async page(list) {
      const limit = list.perPage + 1
      const offset = (list.page - 1) * list.perPage
      const statement = pages.get(`${list.direction}|${list.minPrice !== null}`)!
      if (list.minPrice === null) {
        return { rows: statement.all(limit, offset) as Row[], total: countAll.get() as number }
      }
      return {
        rows: statement.all(list.minPrice, limit, offset) as Row[],
        total: countFiltered.get(list.minPrice) as number,
      }
    },
    async related(authorIds, categoryIds) {
      return [
        authorIds === null || authorIds.length === 0 ? [] : (authors.all(JSON.stringify(authorIds)) as Row[]),
        categoryIds === null || categoryIds.length === 0 ? [] : (categories.all(JSON.stringify(categoryIds)) as Row[]),
      ]
    },
    async close() {
      db.close()
    },
  }
}

function postgresQueries(url: string, schema: string): PostQueries {
  const { INT8, TIMESTAMPTZ } = pg.types.builtins
  const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ, 'text')
  // bigint ids and counts as numbers, timestamps as the ISO strings the API returns.
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return Number
      if (oid === TIMESTAMPTZ) return (text: string) => (parseTimestamptz(text) as Date).toISOString()
      return pg.types.getTypeParser(oid, format ?? 'text')
    }) as pg.CustomTypesConfig['getTypeParser'],
  }
  const pool = new pg.Pool({ connectionString: url, types })
  pool.on('error', () => {})
  const table = (name: string) => `"${schema}"."${name}"`
  const pageSql = (direction: Direction, filtered: boolean) => {
    const where = filtered ? 'where price >= $1' : ''
    const [limit, offset] = filtered ? ['$2', '$3'] : ['$1', '$2']
    return `select ${POST_COLUMNS} from ${table('posts')} ${where} order by ${orderBy(direction)} limit ${limit} offset ${offset}`
  }
  const run = async (name: string, text: string, values: unknown[]): Promise<Row[]> =>
    (await pool.query<Row>({ name, text, values })).rows
  const countAll = `select count(*) as total from ${table('posts')}`
  const countFiltered = `select count(*) as total from ${table('posts')} where price >= $1`
  const authors = `select ${AUTHOR_COLUMNS} from ${table('authors')} where id = any($1)`
  const categories = `select ${CATEGORY_COLUMNS} from ${table('categories')} where id = any($1)`
  return {
    async page(list) {
      const limit = list.perPage + 1
      const offset = (list.page - 1) * list.perPage
      const filtered = list.minPrice !== null
      const name = `posts_page_${list.direction ?? 'id'}_${filtered}`
      const text = pageSql(list.direction, filtered)
      const [rows, counted] = await Promise.all(
        filtered
          ? [
              run(name, text, [list.minPrice, limit, offset]),
              run('posts_count_filtered', countFiltered, [list.minPrice]),
            ]
          : [run(name, text, [limit, offset]), run('posts_count_all', countAll, [])],
      )
      return { rows, total: counted[0]!.total as number }
    },
    async related(authorIds, categoryIds) {
      return Promise.all([
        authorIds === null || authorIds.length === 0 ? [] : run('authors_by_id', authors, [authorIds]),
        categoryIds === null || categoryIds.length === 0 ? [] : run('categories_by_id', categories, [categoryIds]),
      ])
    },
    async close() {
      await pool.end()
    },
  }
}
