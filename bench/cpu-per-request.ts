/**
 * CPU time per request of the benchmark's series, served in this one process
 * through `app.inject` (no sockets), one request at a time: on a machine
 * shared with other work, a process's CPU time per request moves far less
 * than req/s, so this shows what a change to the request path saves when
 * `npm run bench` cannot. Not a replacement for it (no HTTP parsing, no
 * concurrency, and the database server's own time is not counted):
 *
 *   npm run build && node --import tsx bench/cpu-per-request.ts [sqlite|postgres]
 *
 * Series: the first page of row c and its cursor page 90% into the table, the filtered page of row a, the included
 * page of row b, the tags of row g, the tag filter of row h, each also served by the hand-written server
 * and, for g and h, by its Kysely routes (the ratios printed are their CPU ÷ the generated's), and row f's create with and without hooks (bench/bench-app.ts).
 * Each round runs every series once, in alternating order; prints the median
 * CPU µs and wall µs per request of each over BENCH_ROUNDS [5] rounds of
 * BENCH_REQUESTS [2000] requests, on BENCH_POSTS [10000] posts. BENCH_SERIES:
 * only the series whose names contain one of its comma-separated parts (`BENCH_SERIES='h '` measures
 * row h's two servers; `BENCH_SERIES='h tag'` with `node --cpu-prof` profiles the generated one).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApiServer, createStorage, type Storage } from 'restmint/runtime'
import { allTables } from '../generated/schema.js'
import { api } from '../generated/server.js'
import { benchApp } from './bench-app.js'
import { BENCH_CURSOR_SECRET, buildHandWrittenServer, type HandWrittenDatabase } from './hand-written-server.js'
import { BENCH_JWT_SECRET, PATHS, PER_PAGE } from './query-harness.js'
import { dropPostgresSchema, seedPostgres, seedSqlite } from './seed-database.js'

const dialect = process.argv[2] ?? 'sqlite'
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const requests = Number(process.env.BENCH_REQUESTS ?? 2000)
const sizes = { posts: Number(process.env.BENCH_POSTS ?? 10_000), authors: 1_000, categories: 50 }
const postgresUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

// As bench/query-server.ts serves them: the example's custom operations left out (their handlers are the
// example's own app module), the hooked server with bench-app.ts's two hooks on authors.
const withoutOperations = { ...api, versions: api.versions.map(({ operations: _, ...version }) => version) }
const withHooks = { ...withoutOperations, hooks: { authors: ['beforeCreate', 'afterCreate'] as const }, computed: {} }

const directory = mkdtempSync(join(tmpdir(), 'restmint-cpu-'))
const schema = `restmint_cpu_${process.pid}`
const storages: Storage[] = []
const open = (): { db?: string; storage?: Storage } => {
  if (dialect === 'sqlite') return { db: `sqlite:${join(directory, 'bench.db')}` }
  const storage = createStorage(postgresUrl, allTables, { schema })
  storages.push(storage)
  return { storage }
}
try {
  if (dialect === 'sqlite') await seedSqlite(join(directory, 'bench.db'), sizes)
  else await seedPostgres(postgresUrl, schema, sizes)
  const common = { docs: false, cursorSecret: BENCH_CURSOR_SECRET, env: { JWT_SECRET: BENCH_JWT_SECRET } }
  const plain = await buildApiServer(withoutOperations, { ...common, ...open() })
  const hooked = await buildApiServer(withHooks, { ...common, ...open(), app: benchApp })
  const database: HandWrittenDatabase =
    dialect === 'sqlite'
      ? { kind: 'sqlite', file: join(directory, 'bench.db') }
      : { kind: 'postgres', url: postgresUrl, schema }
  const handWritten = await buildHandWrittenServer(database)
  const handWrittenKysely = await buildHandWrittenServer(database, 'kysely')
  const author = JSON.stringify({ name: ' Bench Author ' })
  // Row c's depth walk: the cursor the offset page 90% into the table hands out.
  const depthPage = Math.round((sizes.posts * 0.9) / PER_PAGE)
  const depthCursor = (await plain.inject({ method: 'GET', url: PATHS.offset(depthPage) })).json().meta.next_cursor
  const series: { name: string; app: FastifyInstance; path: string; body?: string; cpu: number[]; wall: number[] }[] = [
    { name: 'c first page', app: plain, path: PATHS.first, cpu: [], wall: [] },
    { name: 'c cursor at depth', app: plain, path: PATHS.cursor(depthCursor), cpu: [], wall: [] },
    { name: 'a filtered page', app: plain, path: PATHS.filtered, cpu: [], wall: [] },
    { name: 'b included page', app: plain, path: PATHS.included, cpu: [], wall: [] },
    { name: 'g tags page', app: plain, path: PATHS.tagsIncluded, cpu: [], wall: [] },
    { name: 'h tag filter', app: plain, path: PATHS.byTag, cpu: [], wall: [] },
    { name: 'c hand-written', app: handWritten, path: PATHS.first, cpu: [], wall: [] },
    { name: 'a hand-written', app: handWritten, path: PATHS.filtered, cpu: [], wall: [] },
    { name: 'b hand-written', app: handWritten, path: PATHS.included, cpu: [], wall: [] },
    { name: 'g hand-written', app: handWritten, path: PATHS.tagsIncluded, cpu: [], wall: [] },
    { name: 'h hand-written', app: handWritten, path: PATHS.byTag, cpu: [], wall: [] },
    { name: 'g Kysely routes', app: handWrittenKysely, path: PATHS.tagsIncluded, cpu: [], wall: [] },
    { name: 'h Kysely routes', app: handWrittenKysely, path: PATHS.byTag, cpu: [], wall: [] },
    { name: 'f create with hooks', app: hooked, path: '/v2/authors', body: author, cpu: [], wall: [] },
    { name: 'f create without hooks', app: plain, path: '/v2/authors', body: author, cpu: [], wall: [] },
  ]
  const handWrittenServers = [handWritten, handWrittenKysely]
  const only = process.env.BENCH_SERIES?.split(',')
  if (only) series.splice(0, series.length, ...series.filter((entry) => only.some((part) => entry.name.includes(part))))
  for (const entry of series) await run(entry, Math.min(requests, 300))
  for (let round = 1; round <= rounds; round++) {
    for (const entry of round % 2 === 1 ? series : [...series].reverse()) {
      const { cpu, wall } = await run(entry, requests)
      entry.cpu.push(cpu)
      entry.wall.push(wall)
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  console.log(`${dialect}, ${requests} requests × ${rounds} rounds, one at a time; medians (least):`)
  for (const { name, app, path, cpu, wall } of series) {
    // A generated series against the hand-written ones of the same request: reference CPU ÷ generated CPU.
    const ratios = [handWritten, handWrittenKysely].flatMap((reference) => {
      const measured = series.find((other) => other.app === reference && other.path === path)
      return measured && !handWrittenServers.includes(app) ? [(median(measured.cpu) / median(cpu)).toFixed(2)] : []
    })
    const ratio = ratios.length === 0 ? '' : `  ratio ${ratios.join(' / ')}`
    console.log(
      `${name.padEnd(20)} ${median(cpu).toFixed(1).padStart(7)} µs CPU (${Math.min(...cpu).toFixed(1)})  ` +
        `${median(wall).toFixed(1).padStart(7)} µs wall${ratio}`,
    )
  }
  await handWritten.close()
  await handWrittenKysely.close()
  await plain.close()
  await hooked.close()
} finally {
  for (const storage of storages) await storage.close()
  if (dialect !== 'sqlite') await dropPostgresSchema(postgresUrl, schema)
  rmSync(directory, { recursive: true, force: true })
}

async function run(
  entry: { app: FastifyInstance; path: string; body?: string },
  count: number,
): Promise<{ cpu: number; wall: number }> {
  const request =
    entry.body === undefined
      ? { method: 'GET' as const, url: entry.path }
      : {
          method: 'POST' as const,
          url: entry.path,
          payload: entry.body,
          headers: { 'content-type': 'application/json' },
        }
  const cpuBefore = process.cpuUsage()
  const wallBefore = process.hrtime.bigint()
  for (let index = 0; index < count; index++) {
    const response = await entry.app.inject(request)
    if (response.statusCode >= 300) throw new Error(`${entry.path}: ${response.statusCode} ${response.body}`)
  }
  const used = process.cpuUsage(cpuBefore)
  return { cpu: (used.user + used.system) / count, wall: Number(process.hrtime.bigint() - wallBefore) / 1000 / count }
}
