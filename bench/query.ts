/**
 * `npm run bench`: the generated server's query performance against a
 * hand-written Fastify route, on SQLite and PostgreSQL (issue 3, Performance),
 * and the same list request through the deprecated v1, served through its
 * generated translation, against the current v2 (issue 9).
 *
 * For each database: seeds 100,000 posts, 1,000 authors, 50 categories, 50 tags and five tags per post in
 * the schema restmint creates; starts the generated server (generated/server.ts)
 * and the hand-written one (bench/hand-written-server.ts: SQL prepared once; for rows g and h also its
 * routes written with Kysely's query builder, issue 17's reference) as separate processes, plus generated
 * servers of their own for the depth walk, for rows g and h and for f's hookless create (each compared
 * pair then serves the same traffic), one without `auth:` (e, the cost of verifying a bearer token on
 * every request) and the HTTP floor (a bare Fastify route sending the
 * benchmarked responses' bytes from memory); checks that both answer the benchmarked URLs with identical
 * bodies and that the cursor at depth continues exactly where the offset page
 * does; then measures with autocannon against 127.0.0.1, every series once per
 * round, servers alternated, several rounds, and reports the medians, each
 * ratio's spread over the rounds (min / median / max), and the generated
 * server's resident memory after the first and the last round.
 *
 * BENCH_POSTS=1000000 is the large run: the same rows, seeded in bulk through
 * the driver (seed-database.ts), never through the API.
 *
 * Environment (defaults in brackets): BENCH_POSTS [100000], BENCH_ROUNDS [5],
 * BENCH_SECONDS per run [3], BENCH_CONNECTIONS [10], BENCH_PG_URL
 * [postgres://postgres@127.0.0.1:5432/test], BENCH_PG=off to skip PostgreSQL, BENCH_ROWS [abcdefgh]: the
 * letters of the rows to measure (`BENCH_ROWS=af` measures a and f only: a quick look at one change;
 * `BENCH_ROWS=gh` the many-to-many rows of issue 17, `include=tags` and `filter[tags.name][eq]`).
 * Prints Markdown tables; asserts nothing beyond the identical bodies.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signJwt } from '../generator/cli/sign-jwt.js'
import { api } from '../generated/server.js'
import {
  BENCH_JWT_SECRET,
  getJson,
  measure,
  PATHS,
  PER_PAGE,
  startServer,
  type Measurement,
  type RunningServer,
} from './query-harness.js'
import { dropPostgresSchema, seedPostgres, seedSqlite, type SeedSizes } from './seed-database.js'

const sizes: SeedSizes = { posts: envNumber('BENCH_POSTS', 100_000), authors: 1_000, categories: 50 }
const rounds = envNumber('BENCH_ROUNDS', 5)
const seconds = envNumber('BENCH_SECONDS', 3)
const connections = envNumber('BENCH_CONNECTIONS', 10)
const postgresUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const WARM_UP_SECONDS = 1
const selectedRows = process.env.BENCH_ROWS || 'abcdefgh'

/** The row the depth measurements start after: 90% into the table (90,000 of 100,000). */
const depthRows = Math.round((sizes.posts * 0.9) / PER_PAGE) * PER_PAGE
const depthPage = depthRows / PER_PAGE + 1

interface Series {
  readonly name: string
  readonly server: RunningServer
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  /** A POST of this JSON body; GET without one. */
  readonly body?: string
  readonly runs: Measurement[]
}

interface Comparison {
  readonly database: string
  readonly measurement: string
  readonly subject: Series
  readonly reference: Series
  readonly referenceName: string
  readonly target: string
  readonly minimum: number | null
}

interface MemoryReading {
  readonly database: string
  /** The generated server's RSS after the first round and after the last, bytes. */
  readonly afterFirst: number
  readonly afterLast: number
}

const cleanups: (() => Promise<void>)[] = []
const memory: MemoryReading[] = []
process.once('SIGINT', () => {
  void runCleanups().then(() => process.exit(130))
})

const started = Date.now()
const comparisons: Comparison[] = []
const notes: string[] = []
const directory = mkdtempSync(join(tmpdir(), 'restmint-bench-'))
cleanups.push(async () => rmSync(directory, { recursive: true, force: true }))
try {
  const file = join(directory, 'bench.db')
  await timed(`SQLite: seeding ${describeSizes()}`, () => seedSqlite(file, sizes))
  comparisons.push(...(await benchDatabase('SQLite', `sqlite:${file}`)))

  if (process.env.BENCH_PG === 'off') {
    notes.push('PostgreSQL skipped (BENCH_PG=off).')
  } else {
    const schema = `restmint_bench_${process.pid}`
    cleanups.push(() => dropPostgresSchema(postgresUrl, schema))
    let seeded = false
    try {
      await timed(`PostgreSQL: seeding ${describeSizes()} in schema ${schema}`, () =>
        seedPostgres(postgresUrl, schema, sizes),
      )
      seeded = true
    } catch (error) {
      notes.push(`PostgreSQL skipped: ${(error as Error).message}`)
    }
    if (seeded) comparisons.push(...(await benchDatabase('PostgreSQL', postgresUrl, schema)))
  }
} finally {
  await runCleanups()
}
printReport()

async function benchDatabase(database: string, url: string, schema?: string): Promise<Comparison[]> {
  const generated = await startServer('generated', url, schema)
  cleanups.push(() => generated.stop())
  const handWritten = await startServer('hand-written', url, schema)
  cleanups.push(() => handWritten.stop())
  // g and h: the issue's reference, the same routes written with Kysely's query builder.
  const kyselyRoutes = await startServer('hand-written-kysely', url, schema)
  cleanups.push(() => kyselyRoutes.stop())
  // The depth walk gets a process of its own: the two compared servers then serve exactly the same
  // traffic, so neither's SQLite page cache or heap carries the other measurements' leftovers.
  const walker = await startServer('generated', url, schema)
  cleanups.push(() => walker.stop())
  // The offset page at depth too: at 1,000,000 rows its requests outlast a run, and the ones still
  // running would hold the walker's pool through the next series (0 req/s on PostgreSQL).
  const deep = await startServer('generated', url, schema)
  cleanups.push(() => deep.stop())
  // g and h, and f's hookless create, get generated processes of their own too: each compared pair of
  // servers then serves the same traffic (the Kysely routes serve g and h alone, the hooked server f alone).
  const tagged = await startServer('generated', url, schema)
  cleanups.push(() => tagged.stop())
  const creating = await startServer('generated', url, schema)
  cleanups.push(() => creating.stop())
  // e: the same list with a bearer token the generated server verifies, against one without `auth:`.
  const withoutAuth = await startServer('generated-without-auth', url, schema)
  cleanups.push(() => withoutAuth.stop())
  // The floor: the generated server's own response bytes, sent by a bare route.
  const bodies = join(directory, `floor-${database}.json`)
  const floorPaths = [PATHS.filtered, PATHS.first]
  const floorBodies = await Promise.all(floorPaths.map(async (path) => (await getJson(generated.origin + path)).text))
  writeFileSync(bodies, JSON.stringify(Object.fromEntries(floorPaths.map((path, index) => [path, floorBodies[index]]))))
  const floor = await startServer('floor', bodies)
  cleanups.push(() => floor.stop())
  // f: the same create with a beforeCreate and an afterCreate hook (bench/bench-app.ts), against none.
  const withHooks = await startServer('generated-with-hooks', url, schema)
  cleanups.push(() => withHooks.stop())
  // f's floor: an afterCreate that does nothing, so its create costs the write's transaction and little else.
  const withEmptyAfterHook = await startServer('generated-with-empty-after-hook', url, schema)
  cleanups.push(() => withEmptyAfterHook.stop())

  await assertIdentical(generated, handWritten, PATHS.filtered)
  await assertIdentical(generated, handWritten, PATHS.included)
  await assertIdentical(tagged, handWritten, PATHS.tagsIncluded)
  await assertIdentical(tagged, handWritten, PATHS.byTag)
  await assertIdentical(tagged, kyselyRoutes, PATHS.tagsIncluded)
  await assertIdentical(tagged, kyselyRoutes, PATHS.byTag)
  await assertTranslated(generated)
  const cursor = await cursorAtDepth(walker)

  const series = (name: string, server: RunningServer, path: string, headers?: Record<string, string>): Series => ({
    name,
    server,
    path,
    runs: [],
    ...(headers ? { headers } : {}),
  })
  const filteredGenerated = series('a generated', generated, PATHS.filtered)
  const filteredHand = series('a hand-written', handWritten, PATHS.filtered)
  const filteredEstimated = series('a generated, count=estimated', generated, PATHS.filteredEstimated)
  const filteredFloor = series('a floor', floor, PATHS.filtered)
  const includedGenerated = series('b generated', generated, PATHS.included)
  const includedHand = series('b hand-written', handWritten, PATHS.included)
  const first = series('c first page', walker, PATHS.first)
  const byCursor = series('c cursor at depth', walker, PATHS.cursor(cursor))
  const byOffset = series('c offset at depth', deep, PATHS.offset(depthPage))
  const firstFloor = series('c floor', floor, PATHS.first)
  const throughV1 = series('d v1, translated', generated, PATHS.includedThroughV1)
  const throughV2 = series('d v2', generated, PATHS.included)
  const authorization = { authorization: `Bearer ${benchToken()}` }
  const authenticated = series('e token verified', generated, PATHS.filtered, authorization)
  const authOff = series('e auth off', withoutAuth, PATHS.filtered, authorization)
  const author = JSON.stringify({ name: ' Bench Author ' })
  const createWithHooks = { ...series('f create, hooks', withHooks, '/v2/authors'), body: author }
  const createWithout = { ...series('f create, no hooks', creating, '/v2/authors'), body: author }
  const createInTransaction = {
    ...series('f create, empty afterCreate', withEmptyAfterHook, '/v2/authors'),
    body: author,
  }
  const tagsGenerated = series('g generated', tagged, PATHS.tagsIncluded)
  const tagsHand = series('g hand-written', handWritten, PATHS.tagsIncluded)
  const byTagGenerated = series('h generated', tagged, PATHS.byTag)
  const byTagHand = series('h hand-written', handWritten, PATHS.byTag)
  const tagsKysely = series('g Kysely routes', kyselyRoutes, PATHS.tagsIncluded)
  const byTagKysely = series('h Kysely routes', kyselyRoutes, PATHS.byTag)
  // Every series once per round, the compared servers right after each other; every other round
  // in the opposite order (A B, B A, A B…), so whichever runs first has no edge in the medians.
  const groups = [
    [filteredGenerated, filteredHand, filteredEstimated, filteredFloor],
    [includedGenerated, includedHand],
    [first, byCursor, byOffset, firstFloor],
    [throughV1, throughV2],
    [authenticated, authOff],
    [createWithHooks, createWithout, createInTransaction],
    [tagsGenerated, tagsKysely, tagsHand],
    [byTagGenerated, byTagKysely, byTagHand],
  ].filter((group) => selectedRows.includes(group[0]!.name[0]!))
  const all = groups.flat()

  log(`${database}: warming up`)
  for (const { server, path, headers, body } of all) {
    await measure(server, path, WARM_UP_SECONDS, connections, headers, body)
  }
  let afterFirst = 0
  for (let round = 1; round <= rounds; round++) {
    for (const group of groups) {
      for (const entry of round % 2 === 1 ? group : [...group].reverse()) {
        entry.runs.push(await measure(entry.server, entry.path, seconds, connections, entry.headers, entry.body))
      }
    }
    if (round === 1) afterFirst = await generated.rss()
    if (round === rounds) memory.push({ database, afterFirst, afterLast: await generated.rss() })
    log(
      `${database}: round ${round}/${rounds}: ${all.map((entry) => `${entry.name} ${Math.round(entry.runs.at(-1)!.rps)}`).join(', ')}`,
    )
  }

  await Promise.all([
    generated.stop(),
    handWritten.stop(),
    kyselyRoutes.stop(),
    walker.stop(),
    tagged.stop(),
    creating.stop(),
    deep.stop(),
    withoutAuth.stop(),
    floor.stop(),
    withHooks.stop(),
    withEmptyAfterHook.stop(),
  ])
  const depth = depthRows.toLocaleString('en-US')
  const measured = new Set(all)
  const listed: Comparison[] = [
    {
      database,
      measurement: `a. \`filter[price][gte]=500&sort=-created_at&page=3&per_page=${PER_PAGE}\``,
      subject: filteredGenerated,
      reference: filteredHand,
      referenceName: 'hand-written',
      target: '≥ 1.1',
      minimum: 1.1,
    },
    {
      database,
      measurement: 'a. same page `&count=estimated`',
      subject: filteredEstimated,
      reference: filteredHand,
      referenceName: 'hand-written (exact)',
      target: database === 'PostgreSQL' ? '≥ 3' : 'reported (SQLite counts exactly)',
      minimum: database === 'PostgreSQL' ? 3 : null,
    },
    {
      database,
      measurement: 'a. (generated) against the HTTP floor',
      subject: filteredGenerated,
      reference: filteredFloor,
      referenceName: 'HTTP floor',
      target: 'reported',
      minimum: null,
    },
    {
      database,
      measurement: 'b. same page `&include=author,category`',
      subject: includedGenerated,
      reference: includedHand,
      referenceName: 'hand-written',
      target: '≥ 1.1',
      minimum: 1.1,
    },
    {
      database,
      measurement: 'c. first page (`sort=-created_at`, no count)',
      subject: first,
      reference: firstFloor,
      referenceName: 'HTTP floor',
      target: database === 'SQLite' ? '≥ 0.6' : 'reported',
      minimum: database === 'SQLite' ? 0.6 : null,
    },
    {
      database,
      measurement: `c. cursor page after row ${depth} (\`sort=-created_at\`)`,
      subject: byCursor,
      reference: first,
      referenceName: 'first page (generated)',
      // Issue 3 asked ≥ 0.8 at 100,000 posts; issue 19 asks ≥ 0.9 at 1,000,000.
      target: '≥ 0.9',
      minimum: 0.9,
    },
    {
      database,
      measurement: `c. offset page after row ${depth} (\`page=${depthPage}\`)`,
      subject: byOffset,
      reference: first,
      referenceName: 'first page (generated)',
      target: 'reported (issue: ~0.05)',
      minimum: null,
    },
    {
      database,
      measurement: 'd. the page of b through v1 (`/v1/posts…`, translated; deprecated, so headers and `meta` too)',
      subject: throughV1,
      reference: throughV2,
      referenceName: 'v2 (generated)',
      target: '≥ 0.9 (issue 9)',
      minimum: 0.9,
    },
    {
      database,
      measurement: 'e. (a) with `Authorization: Bearer` (HS256 verified, cached)',
      subject: authenticated,
      reference: authOff,
      referenceName: 'auth off (generated)',
      target: '≥ 0.9',
      minimum: 0.9,
    },
    {
      database,
      measurement: 'f. `POST /v2/authors` with a `beforeCreate` and an `afterCreate` hook (issue 16)',
      subject: createWithHooks,
      reference: createWithout,
      referenceName: 'no hooks (generated)',
      target: '≥ 0.9',
      minimum: 0.9,
    },
    {
      database,
      measurement: "f′. the same with only an `afterCreate` that does nothing: the write's transaction, f's floor",
      subject: createInTransaction,
      reference: createWithout,
      referenceName: 'no hooks (generated)',
      target: 'reported',
      minimum: null,
    },
    {
      database,
      measurement: `g. \`include=tags&per_page=${PER_PAGE}&count=none\` (five tags per post; issue 17)`,
      subject: tagsGenerated,
      reference: tagsKysely,
      referenceName: 'hand-written Kysely routes',
      target: '≥ 0.95',
      minimum: 0.95,
    },
    {
      database,
      measurement: 'g. the same page',
      subject: tagsGenerated,
      reference: tagsHand,
      referenceName: 'hand-written statements',
      target: 'reported',
      minimum: null,
    },
    {
      database,
      measurement: `h. \`filter[tags.name][eq]=tag-7&per_page=${PER_PAGE}&count=none\` (one post in ten; issue 17)`,
      subject: byTagGenerated,
      reference: byTagKysely,
      referenceName: 'hand-written Kysely routes',
      target: '≥ 0.95',
      minimum: 0.95,
    },
    {
      database,
      measurement: 'h. the same page',
      subject: byTagGenerated,
      reference: byTagHand,
      referenceName: 'hand-written statements',
      target: 'reported',
      minimum: null,
    },
  ]
  return listed.filter(({ subject, reference }) => measured.has(subject) && measured.has(reference))
}

/**
 * v1 answers the included page with v2's records under v1's names (posts'
 * `content` is v1's `body`), or the benchmark stops: the translation is
 * measured doing its whole job.
 */
async function assertTranslated(generated: RunningServer): Promise<void> {
  const [v1, v2] = await Promise.all([
    getJson(generated.origin + PATHS.includedThroughV1),
    getJson(generated.origin + PATHS.included),
  ])
  const asV1 = (v2.body.data as Record<string, unknown>[]).map((post) =>
    Object.fromEntries(Object.entries(post).map(([name, value]) => [name === 'content' ? 'body' : name, value])),
  )
  if (v1.body.data.length !== PER_PAGE || JSON.stringify(v1.body.data) !== JSON.stringify(asV1)) {
    throw new Error(`${PATHS.includedThroughV1}: not ${PATHS.included}'s records with content named body`)
  }
  if (v1.body.meta.deprecated !== true) throw new Error(`${PATHS.includedThroughV1}: no meta.deprecated`)
}

/** A token of the example's jwt scheme, signed with the secret the benchmarked servers verify with. */
function benchToken(): string {
  const scheme = api.auth?.schemes.find((candidate) => candidate.type === 'jwt')
  if (scheme === undefined || scheme.type !== 'jwt') throw new Error('the example API has no jwt scheme to benchmark')
  const now = Math.floor(Date.now() / 1000)
  return signJwt(
    { iss: scheme.issuer, aud: scheme.audience, sub: 'bench', scope: 'posts:write', iat: now, exp: now + 86_400 },
    { alg: 'HS256', secret: BENCH_JWT_SECRET },
  )
}

/** Both servers answer `path` with the same bytes, or the benchmark stops. */
async function assertIdentical(generated: RunningServer, handWritten: RunningServer, path: string): Promise<void> {
  const [fromGenerated, fromHand] = await Promise.all([
    getJson(generated.origin + path),
    getJson(handWritten.origin + path),
  ])
  if (fromGenerated.body.data.length !== PER_PAGE) throw new Error(`${path}: expected a full page of ${PER_PAGE}`)
  if (fromGenerated.text === fromHand.text) return
  let index = 0
  while (fromGenerated.text[index] === fromHand.text[index]) index++
  const around = (text: string) => text.slice(Math.max(0, index - 80), index + 80)
  throw new Error(
    `${path}: the servers' bodies differ at character ${index}:\n` +
      `  generated:    …${around(fromGenerated.text)}…\n  hand-written: …${around(fromHand.text)}…`,
  )
}

/**
 * The cursor continuing after row `depthRows`: `meta.next_cursor` of the offset
 * page ending there, which encodes that page's last row's position for the same
 * sort and filters. Checks that the cursor page is exactly the next offset page.
 */
async function cursorAtDepth(generated: RunningServer): Promise<string> {
  const before = await getJson(generated.origin + PATHS.offset(depthPage - 1))
  const cursor: unknown = before.body.meta.next_cursor
  if (typeof cursor !== 'string') throw new Error(`page ${depthPage - 1} has no next_cursor`)
  const [byCursor, byOffset] = await Promise.all([
    getJson(generated.origin + PATHS.cursor(cursor)),
    getJson(generated.origin + PATHS.offset(depthPage)),
  ])
  const cursorRows = JSON.stringify(byCursor.body.data)
  if (byCursor.body.data.length !== PER_PAGE || cursorRows !== JSON.stringify(byOffset.body.data)) {
    throw new Error(`the cursor page after row ${depthRows} is not offset page ${depthPage}`)
  }
  if ('total' in byCursor.body.meta) throw new Error('a cursor page reports total')
  return cursor
}

function printReport(): void {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    const middle = Math.floor(sorted.length / 2)
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
  }
  const rps = (series: Series) => median(series.runs.map((run) => run.rps))
  const p99 = (series: Series) => median(series.runs.map((run) => run.p99))
  const cpu = (series: Series) => median(series.runs.map((run) => run.cpuPerRequest))
  const integer = (value: number) => Math.round(value).toLocaleString('en-US')

  console.log(
    `\n## Query benchmark: ${describeSizes()}; autocannon, ${connections} connections, ` +
      `${rounds} rounds × ${seconds} s per series, servers alternated (order reversed every other round); medians\n`,
  )
  const rows = comparisons.map((comparison) => {
    const ratio = rps(comparison.subject) / rps(comparison.reference)
    // Runs of one round are back to back, so their ratio shrugs off load that drifts between rounds.
    // (runs[i] of every series is from round i + 1.)
    const perRound = comparison.subject.runs.map((run, index) => run.rps / comparison.reference.runs[index]!.rps)
    const spread = [Math.min(...perRound), median(perRound), Math.max(...perRound)]
    const verdict = comparison.minimum === null ? '' : ratio >= comparison.minimum ? ' ✅' : ' ❌'
    return [
      comparison.database,
      comparison.measurement,
      integer(rps(comparison.subject)),
      `${p99(comparison.subject)} ms`,
      comparison.referenceName,
      integer(rps(comparison.reference)),
      `${p99(comparison.reference)} ms`,
      ratio.toFixed(2),
      spread.map((value) => value.toFixed(2)).join(' / '),
      `${integer(cpu(comparison.subject))} / ${integer(cpu(comparison.reference))} µs`,
      (cpu(comparison.reference) / cpu(comparison.subject)).toFixed(2),
      comparison.target + verdict,
    ]
  })
  printTable(
    [
      'Database',
      'Measurement',
      'Generated req/s',
      'Generated p99',
      'Reference',
      'Reference req/s',
      'Reference p99',
      'Ratio',
      'Per-round ratio min / median / max',
      'CPU/req generated / reference',
      'CPU ratio',
      'Target (on Ratio)',
    ],
    rows,
  )
  console.log(
    '\nRatio: generated req/s ÷ reference req/s, both medians over the rounds. Per-round ratio: the least, ' +
      "median and greatest of the ratios of the two runs of each round, which ran back to back. CPU/req: the server process's CPU " +
      'time per request (median); CPU ratio: reference ÷ generated, the throughput ratio a CPU-bound server ' +
      'would reach with the CPUs to itself, hardly moved by other load on the machine.',
  )

  const mebibytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MiB`
  console.log('\nResident memory of the generated server (a, b, d and e ran on it):\n')
  printTable(
    ['Database', 'After round 1', `After round ${rounds}`, 'Ratio', 'Target'],
    memory.map(({ database, afterFirst, afterLast }) => {
      const ratio = afterLast / afterFirst
      return [
        database,
        mebibytes(afterFirst),
        mebibytes(afterLast),
        ratio.toFixed(2),
        `≤ 1.1${ratio <= 1.1 ? ' ✅' : ' ❌'}`,
      ]
    }),
  )

  console.log('\nEvery run, in round order:\n')
  const seen = new Set<Series>()
  const detail: string[][] = []
  for (const comparison of comparisons) {
    for (const series of [comparison.subject, comparison.reference]) {
      if (seen.has(series)) continue
      seen.add(series)
      detail.push([
        comparison.database,
        series.name,
        series.server.kind,
        series.runs.map((run) => integer(run.rps)).join(', '),
        series.runs.map((run) => integer(run.cpuPerRequest)).join(', '),
      ])
    }
  }
  printTable(['Database', 'Series', 'Server', 'req/s per round', 'CPU µs/req per round'], detail)
  for (const note of notes) console.log(`\n${note}`)
  console.log(`\nTotal time ${Math.round((Date.now() - started) / 1000)} s.`)
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
  console.log(line(header))
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
  for (const row of rows) console.log(line(row))
}

async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup()
    } catch (error) {
      console.error(`cleanup failed: ${(error as Error).message}`)
    }
  }
}

async function timed(what: string, work: () => Promise<void>): Promise<void> {
  const begun = Date.now()
  await work()
  log(`${what}: ${Date.now() - begun} ms`)
}

function describeSizes(): string {
  const count = (value: number) => value.toLocaleString('en-US')
  return (
    `${count(sizes.posts)} posts (five tags each), ${count(sizes.authors)} authors, ` +
    `${count(sizes.categories)} categories, 50 tags`
  )
}

function log(message: string): void {
  console.error(`[bench] ${message}`)
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`)
  return value
}
