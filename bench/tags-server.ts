/**
 * One server of the many-to-many benchmark (bench/tags.ts), run as its own
 * process: the generated tags API (test/fixtures/tags-api) or the same two
 * requests written by hand over Kysely.
 *
 *   node --import tsx bench/tags-server.ts generated|hand-written <database URL> [postgres schema]
 *
 * Listens on a free port of 127.0.0.1, prints `listening <port>`, answers the
 * IPC message `cpu` with its process.cpuUsage(), exits on SIGTERM.
 */
import Fastify from 'fastify'
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely'
import Database from 'better-sqlite3'
import pg from 'pg'
import { createStorage } from 'restmint/runtime'
import { allTables } from '../test/fixtures/tags-api/generated/schema.js'
import { buildServer } from '../test/fixtures/tags-api/generated/server.js'

const [kind, url, schema] = process.argv.slice(2)
if ((kind !== 'generated' && kind !== 'hand-written') || url === undefined) {
  throw new Error('usage: tags-server.ts generated|hand-written <database URL> [postgres schema]')
}

const app =
  kind === 'generated'
    ? await buildServer({ storage: createStorage(url, allTables, schema ? { schema } : {}), docs: false })
    : await buildHandWritten(url, schema)
await app.listen({ host: '127.0.0.1', port: 0 })
const address = app.server.address()
console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`)
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() })
})
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)))

/**
 * `GET /v1/posts?include=tags&per_page=N` and
 * `GET /v1/posts?filter[tags.name][eq]=X&per_page=N` as a careful hand-written
 * Kysely route: a page and a count, the tags of the page in one join, the
 * filter as EXISTS. Answers `{ data, meta: { page, per_page, total } }`.
 */
async function buildHandWritten(databaseUrl: string, pgSchema: string | undefined) {
  const db = databaseUrl.startsWith('sqlite:')
    ? new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(databaseUrl.slice('sqlite:'.length)) }) })
    : new Kysely<any>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 10 }) }),
      }).withSchema(pgSchema!)
  const server = Fastify({ logger: false })
  server.addHook('onClose', () => db.destroy())
  server.get('/v1/posts', async (request) => {
    const query = request.query as Record<string, string>
    const perPage = Number(query.per_page ?? 20)
    const tagName = query['filter[tags.name][eq]']
    const hasTag = (eb: any) =>
      eb.exists(
        eb
          .selectFrom('post_tags')
          .innerJoin('tags', 'tags.id', 'post_tags.tag_id')
          .select(sql.lit(1).as('one'))
          .whereRef('post_tags.post_id', '=', 'posts.id')
          .where('tags.name', '=', tagName),
      )
    let page = db
      .selectFrom('posts')
      .selectAll()
      .orderBy('id')
      .limit(perPage + 1)
      .offset(0)
    let count = db.selectFrom('posts').select((eb) => eb.fn.countAll().as('total'))
    if (tagName !== undefined) {
      page = page.where(hasTag)
      count = count.where(hasTag)
    }
    const rows: Record<string, unknown>[] = (await page.execute()).slice(0, perPage)
    const [{ total }] = (await count.execute()) as [{ total: number | string }]
    if (query.include === 'tags' && rows.length > 0) {
      const linked = await db
        .selectFrom('post_tags')
        .innerJoin('tags', 'tags.id', 'post_tags.tag_id')
        .select(['tags.id', 'tags.name', 'tags.created_at', 'tags.updated_at', 'post_tags.post_id as owner'])
        .where(
          'post_tags.post_id',
          'in',
          rows.map((row) => row.id as number),
        )
        .orderBy('post_tags.post_id')
        .orderBy('tags.id')
        .execute()
      const byPost = new Map<unknown, unknown[]>()
      for (const { owner, ...tag } of linked) {
        const list = byPost.get(owner) ?? []
        list.push(tag)
        byPost.set(owner, list)
      }
      for (const row of rows) row.tags = byPost.get(row.id) ?? []
    }
    return { data: rows, meta: { page: 1, per_page: perPage, total: Number(total) } }
  })
  await server.ready()
  return server
}
